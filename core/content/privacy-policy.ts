// docs/product.md §1.3: the privacy policy's sections. Pure data; the page renders each section in order.
import { firm } from './firm';
import { firmAddressLine } from './firm-facts';

export const privacyPolicyLastUpdated = 'March 9, 2025';

export interface PolicySection {
  id: string;
  title: string;
  paragraphs: readonly string[];
  list?: readonly string[];
}

export const privacyPolicySections: readonly PolicySection[] = [
  {
    id: 'introduction',
    title: 'Introduction',
    paragraphs: [
      `${firm.legalName} ("${firm.name}", "we", "us") respects your privacy. This policy explains what personal information we collect through this website, how we use it and the choices you have. As a CPA firm we are also bound by professional confidentiality rules and by federal law protecting taxpayer information; nothing on this website changes those obligations.`,
    ],
  },
  {
    id: 'information-we-collect',
    title: 'Information We Collect',
    paragraphs: ['We collect only the information you choose to give us through this website:'],
    list: [
      'Contact information: your name, e-mail address and, if you provide it, your phone number, when you send a message or request an appointment.',
      'Communication preferences: whether you want to receive our newsletter and how you prefer to be contacted.',
      'Consultation information: the service you are interested in, your preferred date and time, and any notes you add to a booking request or message.',
      'Newsletter subscription details: your e-mail address, optional name, the date you subscribed and confirmed, and your unsubscribe requests.',
      'Chat conversations: the messages you exchange with the chat assistant on this website, and the time of each.',
    ],
  },
  {
    id: 'how-we-use-your-information',
    title: 'How We Use Your Information',
    paragraphs: [
      'We use your information to answer your messages, schedule and confirm consultations, send the newsletter you asked for and improve this website. We do not sell or rent your personal information, and we do not share it with third parties except service providers who help us operate the site (such as our e-mail delivery provider), under contracts that require them to protect it.',
      // The retention is CHAT_RETENTION_DAYS of worker/services/chat/sessions.ts; the throttle's window is worker/services/chat/throttle.ts.
      'When you use the chat assistant, we keep the messages of your conversation (your questions and its answers) with the time each was sent, so the assistant can answer in the context of the conversation, and so we can review conversations to improve its answers and follow up when you ask to talk to a person. We do not store your IP address with the conversation; to limit abuse we keep only a coded form of it that cannot be turned back into the address, for about ten minutes. A conversation is deleted automatically 30 days after its last message. If you ask in the chat to talk to a person, the conversation is sent to us as a contact message together with the name and e-mail address you give, and we keep it like any other message you send us.',
      'Please do not enter Social Security numbers, account numbers or other sensitive tax information in website forms or the chat; use our secure client portal instead.',
    ],
  },
  {
    id: 'cookies',
    title: 'Cookies',
    paragraphs: [
      'This website uses a small amount of browser storage to remember that you accepted our cookie notice. With your consent we may measure how visitors use the site (for example which pages are viewed) in aggregate. Analytics tools are loaded only after you accept the cookie banner, and you can clear your consent at any time by clearing your browser storage for this site.',
    ],
  },
  {
    id: 'contact-us',
    title: 'Contact Us',
    paragraphs: [
      `If you have a question about this policy or want us to correct or delete information you gave us, contact us at ${firm.contact.email}, call ${firm.contact.phone}, or write to ${firm.legalName}, ${firmAddressLine(firm)}.`,
    ],
  },
  {
    id: 'updates',
    title: 'Updates',
    paragraphs: [
      'We may update this policy when our services or the law change. The date at the top of this page shows when it was last revised; significant changes will also be announced on this page.',
    ],
  },
] as const;
