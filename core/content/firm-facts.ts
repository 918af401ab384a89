import type { SiteContent } from './schema';

/** The firm's facts as published: what e-mails, invites and the chat state about it. */
export type FirmFacts = SiteContent['firm'];

/** "2000 Corporate Drive, Suite 250, Warrendale, PA 15086": the one-line address e-mails and invites show. */
export const firmAddressLine = (firm: Pick<FirmFacts, 'contact'>) => {
  const { street, city, region, postalCode } = firm.contact.address;
  return `${street}, ${city}, ${region} ${postalCode}`;
};
