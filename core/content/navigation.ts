/** docs/product.md §1.2: header menu links, in this order. */
export const mainNavigation = [
  { to: '/', label: 'Home' },
  { to: '/services', label: 'Services' },
  { to: '/about', label: 'About' },
  { to: '/resources', label: 'Resources' },
  { to: '/faq', label: 'FAQ' },
  { to: '/contact', label: 'Contact' },
  { to: '/schedule', label: 'Schedule' },
] as const;

export const footerServiceLinks = ['Tax Services', 'Accounting and Payroll', 'Consulting', 'Business Formation'] as const;

export const footerCompanyLinks = [
  { to: '/about', label: 'About Us' },
  { to: '/contact', label: 'Contact' },
  { to: '/privacy-policy', label: 'Privacy Policy' },
] as const;
