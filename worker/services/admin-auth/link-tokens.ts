// The bearer tokens of the admin e-mails' links (an invitation, a password reset; docs/product.md
// §6.8): 32 random bytes, base64url, of which only a SHA-256 (salted with what the link is for, so a
// hash of one kind never matches a token of another) is stored.

const toBase64Url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

export type LinkPurpose = 'admin-invitation' | 'admin-password-reset';

/** A new link token (shown nowhere but in the e-mail's link). */
export const newLinkToken = () => toBase64Url(crypto.getRandomValues(new Uint8Array(32)));

/** What is stored of a link token: the hex SHA-256 of `<purpose>:<token>`. */
export async function linkTokenHash(purpose: LinkPurpose, token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${purpose}:${token}`));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
