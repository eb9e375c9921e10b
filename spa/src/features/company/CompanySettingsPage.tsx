export default function CompanySettingsPage() { return <div>CompanySettingsPage</div>; }
