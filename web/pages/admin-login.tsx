import { Navigate, useNavigate } from 'react-router';
import { useAdminSession } from '../features/admin/api/session';
import { AdminLoginCard } from '../features/admin/components/admin-login-card';
import { usePageMeta } from '../lib/page-meta';

/** /admin/login (docs/product.md §6.1): the same login card as /admin; after signing in, on to /admin. */
export default function AdminLoginPage() {
  usePageMeta({ title: 'Admin Login', description: 'Administrator sign-in' });
  const navigate = useNavigate();
  const session = useAdminSession();
  if (session.data?.authenticated) return <Navigate to="/admin" replace />;
  return <AdminLoginCard onSignedIn={() => navigate('/admin')} />;
}
