// The bearer tokens of the admin e-mails' links (an invitation, a password reset; docs/product.md
// §6.8): 32 random bytes, base64url, of which only a SHA-256 (salted with what the link is for, so a
// hash of one kind never matches a token of another) is stored.

import { bytesToBase64Url, sha256Hex } from '#core/encoding';

export type AdminLinkPurpose = 'admin-invitation' | 'admin-password-reset';

/** A new link token (shown nowhere but in the e-mail's link). */
export const newLinkToken = () => bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32)));

/** What is stored of a link token: the hex SHA-256 of `<purpose>:<token>`. */
export function linkTokenHash(purpose: AdminLinkPurpose, token: string): Promise<string> {
  return sha256Hex(`${purpose}:${token}`);
}
