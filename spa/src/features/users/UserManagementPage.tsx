export default function UserManagementPage() { return <div>UserManagementPage</div>; }
