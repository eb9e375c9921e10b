import { Route, Routes } from 'react-router-dom';
import { InboxDetail } from './InboxDetail';
import { InboxList } from './InboxList';

export default function InboxPage() {
  return (
    <Routes>
      <Route index element={<InboxList />} />
      <Route path=":id" element={<InboxDetail />} />
    </Routes>
  );
}
