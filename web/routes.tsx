import type { RouteObject } from 'react-router';
import { RootLayout } from './components/layout/root-layout';
import AboutPage from './pages/about';
import ContactPage from './pages/contact';
import FaqPage from './pages/faq';
import HomePage from './pages/home';
import NotFoundPage from './pages/not-found';
import PaymentCancelledPage from './pages/payment-cancelled';
import PaymentSuccessPage from './pages/payment-success';
import PrivacyPolicyPage from './pages/privacy-policy';
import ResourcesPage from './pages/resources';
import SchedulePage from './pages/schedule';
import ServicesPage from './pages/services';

// Admin screens are split into their own chunks: a visitor's page never downloads them.
const lazyPage = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    children: [
      { index: true, Component: HomePage },
      { path: 'services', Component: ServicesPage },
      { path: 'about', Component: AboutPage },
      { path: 'resources', Component: ResourcesPage },
      { path: 'faq', Component: FaqPage },
      { path: 'contact', Component: ContactPage },
      { path: 'schedule', Component: SchedulePage },
      { path: 'privacy-policy', Component: PrivacyPolicyPage },
      { path: 'payment-success', Component: PaymentSuccessPage },
      { path: 'payment-cancelled', Component: PaymentCancelledPage },
      { path: 'admin', lazy: lazyPage(() => import('./pages/admin')) },
      { path: 'admin/login', lazy: lazyPage(() => import('./pages/admin-login')) },
      { path: 'admin/subscribers', lazy: lazyPage(() => import('./pages/admin-subscribers')) },
      { path: '*', Component: NotFoundPage },
    ],
  },
];
