// Parsing IP addresses, for the two places that read one: the limits' network key
// (worker/services/limits/client-ip.ts) and the public-address check of the calendar feeds the
// firm subscribes to (worker/services/appointments/public-address.ts).

/** A dotted IPv4 address as a number, or null. */
export function ipv4Number(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included), or null. */
export function ipv6Groups(text: string): number[] | null {
  let body = text.toLowerCase();
  const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(body);
  if (tail) {
    const v4 = ipv4Number(tail[1]);
    if (v4 === null) return null;
    body = `${body.slice(0, -tail[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const parse = (half: string) => (half === '' ? [] : half.split(':'));
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}
