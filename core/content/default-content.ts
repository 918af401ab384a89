// The content document's default (docs/decisions/0013-content-as-a-versioned-document.md): today's
// constants of core/content assembled into the shape of core/content/schema.ts. It is version 1 of
// every install, what the site shows until the firm publishes its own edit, and the seed of the
// back office's first draft. tests/content/content-api.worker.test.ts checks that the schema accepts it
// unchanged. The constants stay the pages', e-mails' and chat's source until they read the
// published document.
import { bookingServiceTypes } from './booking';
import { suggestedQuestionGroups } from './chat';
import { faqCategories, faqItems } from './faq';
import { firm, prices } from './firm';
import { aboutHighlights, leader, ourStory } from './leader';
import { privacyPolicyLastUpdated, privacyPolicySections } from './privacy-policy';
import { federalResourceLinks } from './resources';
import { textToRichText } from './rich-text';
import type { SiteContent } from './schema';
import { serviceGroups } from './services';
import { stateRefundLinks } from './states';
import { taxFacts, taxFactsYear } from './tax-facts';
import { testimonials } from './testimonials';

export const defaultContent: SiteContent = {
  firm: {
    name: firm.name,
    legalName: firm.legalName,
    tagline: firm.tagline,
    foundingYear: firm.foundingYear,
    openedToPublicYear: firm.openedToPublicYear,
    yearsOfExperience: firm.yearsOfExperience,
    contact: {
      phone: firm.contact.phone,
      phoneHref: firm.contact.phoneHref,
      fax: firm.contact.fax,
      email: firm.contact.email,
      address: { ...firm.contact.address },
    },
    hours: firm.hours.map((h) => ({ ...h })),
    hoursSummary: firm.hoursSummary,
    confirmationPromise: firm.confirmationPromise,
    links: {
      payNow: firm.links.payNow,
      clientPortal: firm.links.clientPortal,
      googleReviews: firm.links.googleReviews,
      mapEmbed: firm.links.mapEmbed,
      mapLink: firm.links.mapLink,
    },
    social: firm.social.map((s) => ({ ...s })),
  },
  prices: { ...prices },
  services: {
    // The anchor is not stored: the pages derive it from the title (serviceAnchor).
    groups: serviceGroups.map((g) => ({
      title: g.title,
      icon: g.icon,
      summary: g.summary,
      services: g.services.map((s) => ({ title: s.title, icon: s.icon, description: s.description })),
    })),
  },
  about: {
    story: ourStory.map(textToRichText),
    highlights: aboutHighlights.map((h) => ({ title: h.title, icon: h.icon, description: h.description })),
    leader: {
      name: leader.name,
      shortName: leader.shortName,
      title: leader.title,
      credentials: [...leader.credentials],
      photoAlt: leader.photoAlt,
      bio: leader.bio.map(textToRichText),
      social: leader.social.map((s) => ({ ...s })),
    },
  },
  testimonials: testimonials.map((t) => ({ ...t })),
  faq: {
    categories: [...faqCategories],
    items: faqItems.map((item) => ({
      id: item.id,
      category: item.category,
      question: item.question,
      answer: item.answer,
      ...(item.links ? { links: item.links.map((l) => ({ ...l })) } : {}),
    })),
  },
  resources: {
    taxFacts: { taxYear: taxFactsYear, facts: [...taxFacts] },
    federalLinks: federalResourceLinks.map((l) => ({ ...l })),
    stateLinks: stateRefundLinks.map((s) => ({ ...s })),
  },
  privacyPolicy: {
    lastUpdated: privacyPolicyLastUpdated,
    sections: privacyPolicySections.map((s) => ({
      id: s.id,
      title: s.title,
      paragraphs: s.paragraphs.map(textToRichText),
      ...(s.list ? { list: s.list.map(textToRichText) } : {}),
    })),
  },
  booking: { serviceTypes: [...bookingServiceTypes] },
  chat: {
    suggestedQuestionGroups: suggestedQuestionGroups.map((g) => ({ title: g.title, questions: [...g.questions] })),
  },
};
