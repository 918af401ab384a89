// Which hosts a busy calendar may be fetched from (docs/decisions/0019-recurrence-rules-that-cannot-stall.md):
// the public internet only. The address is typed by a staff member and the calendar server picks
// every redirect, so each hop's host is checked here before the worker fetches it; a refused
// host gets one message whatever the reason, so the answer tells nothing about the network.
//
// Workers cannot resolve a name before fetching it, so a public name that points at a private
// address is beyond this check: what it refuses is every IP literal outside the public unicast
// ranges (in any form the URL parser accepts: decimal, octal, hex, short, IPv6, IPv4-mapped),
// the names reserved for local networks, and names that spell a private address for wildcard DNS
// services (127.0.0.1.nip.io, 10-0-0-1.sslip.io).

import { ipv4Number, ipv6Groups } from '../platform/ip-address';

/** The loopback names and literals local development may fetch (and only local development). */
export const isLoopbackHost = (hostname: string) => {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
};

// [first address, prefix length] of the IPv4 ranges that are not the public internet (RFC 6890 and
// the IANA special-purpose registry): this network, private, shared (CGNAT), loopback, link-local
// (cloud metadata at 169.254.169.254), protocol assignments, documentation, 6to4 relay,
// benchmarking, multicast, reserved and broadcast.
const NON_PUBLIC_V4: [number, number][] = (
  [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const
).map(([address, bits]) => [ipv4Number(address)!, bits]);

const isPublicV4 = (n: number) => !NON_PUBLIC_V4.some(([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)));

/**
 * Public IPv6 is global unicast, 2000::/3, less documentation (2001:db8::/32, 3fff::/20), the
 * protocol assignments with Teredo (2001::/23) and 6to4 (2002::/16, an IPv4 address inside).
 * Everything outside 2000::/3 is refused: unspecified, loopback, IPv4-mapped and -compatible,
 * NAT64, discard, unique local (fc00::/7), link-local (fe80::/10), multicast.
 */
function isPublicV6(g: number[]): boolean {
  if (g[0] < 0x2000 || g[0] > 0x3fff) return false;
  if (g[0] === 0x2001 && (g[1] < 0x0200 || g[1] === 0x0db8)) return false;
  if (g[0] === 0x2002) return false;
  if ((g[0] & 0xfff0) === 0x3ff0) return false;
  return true;
}

/** Names only a local network answers (RFC 6761, RFC 8375, common private suffixes) and the clouds' metadata names. */
const LOCAL_SUFFIXES = ['localhost', 'local', 'localdomain', 'internal', 'intranet', 'lan', 'home', 'corp', 'private', 'home.arpa', 'metadata.goog'];

/** A private IPv4 address spelt inside a name, as wildcard DNS services answer it (a.10.0.0.1.nip.io, 10-0-0-1.sslip.io). */
function spellsPrivateV4(labels: string[]): boolean {
  for (let i = 0; i + 4 <= labels.length; i++) {
    const n = ipv4Number(labels.slice(i, i + 4).join('.'));
    if (n !== null && !isPublicV4(n)) return true;
  }
  return labels.some((label) => {
    const dashed = /(?:^|-)(\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3})$/.exec(label);
    const n = dashed ? ipv4Number(dashed[1].replaceAll('-', '.')) : null;
    return n !== null && !isPublicV4(n);
  });
}

/**
 * Whether a URL's hostname (as `new URL()` gives it: lower case, IPv4 in dotted form, IPv6 in
 * brackets) may be fetched as a public calendar server.
 */
export function isPublicHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === '') return false;
  if (host.startsWith('[')) {
    const groups = host.endsWith(']') ? ipv6Groups(host.slice(1, -1)) : null;
    return groups !== null && isPublicV6(groups);
  }
  const v4 = ipv4Number(host);
  if (v4 !== null) return isPublicV4(v4);
  // Anything else all digits, dots and hex is an address form some resolver may still read.
  if (/^[0-9.]+$/.test(host) || /^0x[0-9a-f.x]+$/.test(host)) return false;
  const labels = host.split('.');
  // A single label (http://metadata/, http://intranet/) is a name of the local network's resolver.
  if (labels.length < 2) return false;
  if (LOCAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) return false;
  return !spellsPrivateV4(labels);
}
