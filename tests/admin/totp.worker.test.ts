import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  generateRecoveryCodes,
  generateTotpSecret,
  hashRecoveryCode,
  otpauthUri,
  totpCode,
  totpStep,
  verifyTotp,
} from '../../worker/services/admin-auth/totp';

// RFC 6238 Appendix B, SHA-1 rows: the ASCII key "12345678901234567890" and the 8-digit codes.
// The 6-digit code is the same HOTP value mod 10^6, i.e. its last six digits.
const RFC_SECRET = base32Encode(new TextEncoder().encode('12345678901234567890'));
const RFC_VECTORS: [seconds: number, code: string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(RFC_VECTORS)('matches Appendix B at T=%i s, in 8 and 6 digits', async (seconds, code) => {
    expect(await totpCode(RFC_SECRET, seconds * 1000, 8)).toBe(code);
    expect(await totpCode(RFC_SECRET, seconds * 1000)).toBe(code.slice(-6));
  });

  it('accepts the current step and one either side, and nothing further', async () => {
    const now = 1111111111_000;
    const codeAt = (offsetSteps: number) => totpCode(RFC_SECRET, now + offsetSteps * 30_000);
    const current = totpStep(now);
    expect(await verifyTotp(RFC_SECRET, await codeAt(0), now)).toBe(current);
    expect(await verifyTotp(RFC_SECRET, await codeAt(-1), now)).toBe(current - 1);
    expect(await verifyTotp(RFC_SECRET, await codeAt(1), now)).toBe(current + 1);
    expect(await verifyTotp(RFC_SECRET, await codeAt(-2), now)).toBeNull();
    expect(await verifyTotp(RFC_SECRET, await codeAt(2), now)).toBeNull();
  });

  it('refuses a code whose step is not after the last one used', async () => {
    const now = 1234567890_000;
    const code = await totpCode(RFC_SECRET, now);
    const step = await verifyTotp(RFC_SECRET, code, now);
    expect(step).toBe(totpStep(now));
    expect(await verifyTotp(RFC_SECRET, code, now, step)).toBeNull();
    // A later step is still fine.
    const next = await totpCode(RFC_SECRET, now + 30_000);
    expect(await verifyTotp(RFC_SECRET, next, now + 30_000, step)).toBe(step! + 1);
  });

  it('accepts spaces in a code and refuses anything but 6 digits', async () => {
    const now = 59_000;
    const code = await totpCode(RFC_SECRET, now);
    expect(await verifyTotp(RFC_SECRET, `${code.slice(0, 3)} ${code.slice(3)}`, now)).not.toBeNull();
    expect(await verifyTotp(RFC_SECRET, '94287082', now)).toBeNull();
    expect(await verifyTotp(RFC_SECRET, 'abcdef', now)).toBeNull();
    expect(await verifyTotp(RFC_SECRET, '', now)).toBeNull();
  });

  it('makes 20-byte base32 secrets that round-trip, and a Key Uri for authenticator apps', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(base32Encode(base32Decode(secret)!)).toBe(secret);
    expect(base32Decode('not base32!')).toBeNull();
    const uri = new URL(otpauthUri(secret, 'admin'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Warrendale CPA:admin');
    expect(Object.fromEntries(uri.searchParams)).toEqual({ secret, issuer: 'Warrendale CPA', algorithm: 'SHA1', digits: '6', period: '30' });
  });

  it('makes 10 distinct recovery codes whose hash ignores case, spaces and dashes', async () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const hash = await hashRecoveryCode(codes[0]);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashRecoveryCode(` ${codes[0].toUpperCase().replace('-', ' ')} `)).toBe(hash);
    expect(await hashRecoveryCode(codes[1])).not.toBe(hash);
  });
});
