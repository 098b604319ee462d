import { PlaceholderPage } from '../../ui/PlaceholderPage';

/** /admin/dashboard (spec section 2, admins only). Built in a later issue. */
export default function AdminDashboardPage() {
  return <PlaceholderPage title="Admin Dashboard" message="The admin dashboard is being set up." />;
}
