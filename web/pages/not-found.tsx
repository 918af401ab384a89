import { NotFoundContent } from '../components/layout/not-found-content';
import { usePageMeta } from '../lib/page-meta';

export default function NotFoundPage() {
  usePageMeta({ title: '404 Page Not Found', description: 'The page you are looking for does not exist.', noindex: true });
  return <NotFoundContent />;
}
