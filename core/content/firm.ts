// Every fact about the firm that the site, the e-mails and the chat assistant state, in one place.
// The firm and its people are fictional; phone numbers use the 555-01xx range reserved for fiction
// and addresses use the reserved .example domain, so nothing here reaches a real person.
// Pure data: imported by the React pages and by the worker (e-mails, chat knowledge base).

export const firm = {
  name: 'Northgate CPA',
  legalName: 'Northgate CPA, LLC',
  tagline: 'Professional accounting services you can trust.',
  logoAlt: 'Northgate CPA logo - professional tax and accounting services',
  // The IANA zone the firm keeps its calendar in: the daily submission cap, booking days and slots,
  // the newsletter schedule, e-mailed times and .ics invites (worker/services/appointments/ics.ts must carry its
  // VTIMEZONE), and the admin's dates. The public origin is SITE_URL in wrangler.jsonc, not here.
  timeZone: 'America/New_York',
  foundingYear: 2020,
  openedToPublicYear: 2021,
  yearsOfExperience: '5+',
  contact: {
    phone: '(724) 555-0142',
    phoneHref: 'tel:+17245550142',
    fax: '(724) 555-0143',
    email: 'info@northgatecpa.example',
    address: {
      street: '2000 Corporate Drive, Suite 250',
      city: 'Warrendale',
      region: 'PA',
      postalCode: '15086',
      country: 'US',
    },
  },
  hours: [
    { days: 'Monday - Friday', time: '9:00 AM - 5:00 PM' },
    { days: 'Saturday - Sunday', time: 'Closed' },
  ],
  hoursSummary: 'Monday to Friday 9:00 AM to 5:00 PM; closed on weekends',
  confirmationPromise: 'We will contact you within 24 hours to confirm your appointment.',
  links: {
    payNow: 'https://pay.northgatecpa.example/pay',
    clientPortal: 'https://portal.northgatecpa.example/login',
    googleReviews: 'https://www.google.com/search?q=Northgate+CPA+Warrendale+PA+reviews',
    // The keyless embed (the Maps Embed API would need an API key); allowed by the CSP's frame-src.
    mapEmbed: 'https://www.google.com/maps?q=Warrendale,+PA+15086&output=embed',
    mapLink: 'https://www.google.com/maps/search/?api=1&query=Warrendale%2C+PA+15086',
  },
  social: [
    { name: 'LinkedIn', kind: 'professional network', href: 'https://www.linkedin.com/company/northgate-cpa-example' },
    { name: 'Instagram', kind: 'photo-sharing network', href: 'https://www.instagram.com/northgatecpa.example' },
    { name: 'Facebook', kind: 'social network', href: 'https://www.facebook.com/northgatecpa.example' },
    { name: 'Nextdoor', kind: 'neighbourhood network', href: 'https://nextdoor.com/pages/northgate-cpa-example' },
  ],
} as const;

/** docs/product.md §1.3: prices stated in the FAQ (and by the chat assistant). */
export const prices = {
  individualReturn: 'from $500',
  businessReturn: 'from $1,000',
  monthlyBookkeeping: 'from $100 per month',
  initialConsultation: 'free',
} as const;
