/**
 * What kind of network address an IP is, for the SSRF guard of merchant-registered MCP endpoints
 * (docs/toolkit-mcp.md, "MCP per merchant"). Pure: text in, class out; no DNS, no sockets.
 *
 * Accepts the forms a WHATWG URL hostname takes after parsing (`new URL('http://2130706433/')`
 * and `http://0177.0.0.1/` both give `127.0.0.1`; IPv6 in brackets or not), and plain dotted IPv4
 * and IPv6 text as DNS answers give them.
 */

/** `public` is the only class a merchant's endpoint may reach unless the operator allows more. */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'cgnat' | 'unique-local' | 'multicast' | 'reserved';

/** A parsed address: 4 bytes (IPv4) or 16 bytes (IPv6). */
export type AddressBytes = readonly number[];

function parseIpv4(text: string): AddressBytes | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes.push(value);
  }
  return bytes;
}

function parseIpv6(input: string): AddressBytes | undefined {
  let text = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(':')) return undefined;
  // An embedded dotted IPv4 tail (::ffff:127.0.0.1) becomes two groups.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseIpv4(tail);
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, lastColon + 1)}${(((v4[0] as number) << 8) | (v4[1] as number)).toString(16)}:${(((v4[2] as number) << 8) | (v4[3] as number)).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string): string[] => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0] as string);
  const rest = halves.length === 2 ? groupsOf(halves[1] as string) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  const bytes: number[] = [];
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    const value = Number.parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  return bytes;
}

/** The bytes of an IPv4 or IPv6 address in text, or undefined when the text is not one (a hostname). */
export function parseAddress(text: string): AddressBytes | undefined {
  return parseIpv4(text) ?? parseIpv6(text);
}

function inPrefix(bytes: AddressBytes, prefix: AddressBytes, bits: number): boolean {
  if (bytes.length !== prefix.length) return false;
  for (let bit = 0; bit < bits; bit += 8) {
    const take = Math.min(8, bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[bit / 8] as number) & mask) !== ((prefix[bit / 8] as number) & mask)) return false;
  }
  return true;
}

const v4 = (a: number, b = 0, c = 0, d = 0): AddressBytes => [a, b, c, d];

/** IPv4 ranges that are not the public internet, most specific first. */
const ipv4Ranges: readonly (readonly [AddressBytes, number, AddressClass])[] = [
  [v4(169, 254, 169, 254), 32, 'metadata'],
  [v4(0), 8, 'unspecified'],
  [v4(127), 8, 'loopback'],
  [v4(10), 8, 'private'],
  [v4(172, 16), 12, 'private'],
  [v4(192, 168), 16, 'private'],
  [v4(100, 64), 10, 'cgnat'],
  [v4(169, 254), 16, 'link-local'],
  [v4(192, 0, 0), 24, 'reserved'],
  [v4(192, 0, 2), 24, 'reserved'],
  [v4(198, 18), 15, 'reserved'],
  [v4(198, 51, 100), 24, 'reserved'],
  [v4(203, 0, 113), 24, 'reserved'],
  [v4(224), 4, 'multicast'],
  [v4(240), 4, 'reserved'],
];

function classifyIpv4(bytes: AddressBytes): AddressClass {
  for (const [prefix, bits, kind] of ipv4Ranges) if (inPrefix(bytes, prefix, bits)) return kind;
  return 'public';
}

function v6(...groups: number[]): AddressBytes {
  const padded = [...groups, ...Array<number>(8 - groups.length).fill(0)];
  return padded.flatMap((group) => [group >> 8, group & 0xff]);
}

/** IPv6 prefixes whose last 32 bits (or bits 16-48 for 6to4) carry an IPv4 address, classified as that address. */
const embedsIpv4: readonly (readonly [AddressBytes, number, number])[] = [
  [v6(0, 0, 0, 0, 0, 0xffff), 96, 12], // IPv4-mapped ::ffff:a.b.c.d
  [v6(0x64, 0xff9b), 96, 12], // NAT64 64:ff9b::a.b.c.d
  [v6(0x64, 0xff9b, 1), 48, 12], // local-use NAT64 64:ff9b:1::/48
  [v6(0, 0, 0, 0, 0, 0), 96, 12], // IPv4-compatible ::a.b.c.d (deprecated), after :: and ::1 below
  [v6(0x2002), 16, 2], // 6to4 2002:a.b.c.d::
];

const ipv6Ranges: readonly (readonly [AddressBytes, number, AddressClass])[] = [
  [v6(), 128, 'unspecified'],
  [v6(0, 0, 0, 0, 0, 0, 0, 1), 128, 'loopback'],
  [v6(0xfe80), 10, 'link-local'],
  [v6(0xfec0), 10, 'private'], // site-local (deprecated)
  [v6(0xfc00), 7, 'unique-local'],
  [v6(0xff00), 8, 'multicast'],
  [v6(0x2001, 0xdb8), 32, 'reserved'], // documentation
  [v6(0x100), 64, 'reserved'], // discard-only
  [v6(0x2001), 23, 'reserved'], // IETF protocol assignments (Teredo, ORCHID, …)
];

function classifyIpv6(bytes: AddressBytes): AddressClass {
  for (const [prefix, bits, kind] of ipv6Ranges.slice(0, 2)) if (inPrefix(bytes, prefix, bits)) return kind;
  for (const [prefix, bits, offset] of embedsIpv4) {
    if (inPrefix(bytes, prefix, bits)) return classifyIpv4(bytes.slice(offset, offset + 4));
  }
  for (const [prefix, bits, kind] of ipv6Ranges.slice(2)) if (inPrefix(bytes, prefix, bits)) return kind;
  return 'public';
}

/**
 * The class of an address in text (IPv4 dotted, IPv6 with or without brackets, IPv4-mapped and
 * other IPv4-embedding IPv6 forms classified as their IPv4 address), or undefined when the text is
 * not an IP address.
 */
export function classifyAddress(text: string): AddressClass | undefined {
  const bytes = parseAddress(text);
  if (bytes === undefined) return undefined;
  return bytes.length === 4 ? classifyIpv4(bytes) : classifyIpv6(bytes);
}

/** A CIDR block (`10.0.0.0/8`, `fd00::/8`, a bare address = one host). */
export interface Cidr {
  readonly bytes: AddressBytes;
  readonly bits: number;
  readonly text: string;
}

/** Parses `a.b.c.d/n` or `x::/n` (a bare address is /32 or /128); undefined when malformed. */
export function parseCidr(text: string): Cidr | undefined {
  const [address, length, extra] = text.trim().split('/');
  if (address === undefined || extra !== undefined) return undefined;
  const bytes = parseAddress(address);
  if (bytes === undefined) return undefined;
  const max = bytes.length * 8;
  const bits = length === undefined ? max : /^\d{1,3}$/.test(length) ? Number(length) : Number.NaN;
  if (!Number.isInteger(bits) || bits < 0 || bits > max) return undefined;
  return { bytes, bits, text: text.trim() };
}

/** Whether `address` (text) lies in `cidr`; an IPv4-mapped IPv6 address matches IPv4 blocks too. */
export function cidrContains(cidr: Cidr, address: string): boolean {
  const bytes = parseAddress(address);
  if (bytes === undefined) return false;
  if (inPrefix(bytes, cidr.bytes, cidr.bits)) return true;
  const mapped = bytes.length === 16 && inPrefix(bytes, v6(0, 0, 0, 0, 0, 0xffff), 96) ? bytes.slice(12) : undefined;
  return mapped !== undefined && inPrefix(mapped, cidr.bytes, cidr.bits);
}
