import net from 'node:net';

/**
 * IP addresses as the server reads a host a company gives: every spelling the system's resolver
 * or a URL parser would turn into an address counts as that address (`127.1`, `0x7f000001`,
 * `2130706433`, `0177.0.0.1`, `[::1]`, `::ffff:127.0.0.1`, `fe80::1%eth0`), so that a check can
 * never be passed by writing an address another way.
 */

export interface IpAddress {
  family: 4 | 6;
  /** 4 or 16 bytes, network order. */
  bytes: Uint8Array;
}

/** A number of inet_aton's: decimal, 0x hexadecimal or 0 octal. */
function atonPart(text: string): number | undefined {
  // A bare `0x` is no number to the system's resolver either.
  if (/^0x[0-9a-f]+$/i.test(text)) return parseInt(text.slice(2), 16);
  if (/^0[0-7]*$/.test(text)) return parseInt(text, 8);
  if (/^[1-9][0-9]*$/.test(text)) return Number(text);
  return undefined;
}

/**
 * An IPv4 address in any form inet_aton (and so getaddrinfo) accepts: one to four parts, each
 * decimal, octal or hexadecimal, the last filling the bytes the others left (`127.1` is 127.0.0.1,
 * `2130706433` too). A trailing dot is allowed, as resolvers allow it.
 */
function parseIpv4(text: string): IpAddress | undefined {
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  const parts = trimmed.split('.');
  if (parts.length < 1 || parts.length > 4 || parts.some((part) => part === '')) return undefined;
  const numbers = parts.map(atonPart);
  if (numbers.some((value) => value === undefined || !Number.isSafeInteger(value))) return undefined;
  const values = numbers as number[];
  const last = values[values.length - 1]!;
  const leading = values.slice(0, -1);
  if (leading.some((value) => value > 255)) return undefined;
  const lastBytes = 4 - leading.length;
  if (last >= 256 ** lastBytes) return undefined;
  const bytes = new Uint8Array(4);
  leading.forEach((value, index) => {
    bytes[index] = value;
  });
  for (let i = 0; i < lastBytes; i += 1) bytes[3 - i] = Math.floor(last / 256 ** i) % 256;
  return { family: 4, bytes };
}

function parseIpv6(text: string): IpAddress | undefined {
  // A zone (`%eth0`) names an interface, not a different address.
  const address = text.replace(/%.*$/, '');
  if (!net.isIPv6(address)) return undefined;
  let head = address;
  let tailV4: Uint8Array | undefined;
  const lastColon = address.lastIndexOf(':');
  if (address.slice(lastColon + 1).includes('.')) {
    tailV4 = parseIpv4(address.slice(lastColon + 1))?.bytes;
    if (!tailV4) return undefined;
    head = `${address.slice(0, lastColon + 1)}0:0`;
  }
  const [left = '', right] = head.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const leftGroups = groups(left);
  const rightGroups = right === undefined ? [] : groups(right);
  const missing = 8 - leftGroups.length - rightGroups.length;
  const all = right === undefined ? leftGroups : [...leftGroups, ...new Array<number>(missing).fill(0), ...rightGroups];
  if (all.length !== 8) return undefined;
  const bytes = new Uint8Array(16);
  all.forEach((group, index) => {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  });
  if (tailV4) bytes.set(tailV4, 12);
  return { family: 6, bytes };
}

/** The address a host names when it is an address, in any spelling; undefined for a host name. */
export function parseIp(host: string): IpAddress | undefined {
  const text = host.trim();
  if (text.startsWith('[') && text.endsWith(']')) return parseIpv6(text.slice(1, -1));
  if (text.includes(':')) return parseIpv6(text);
  return parseIpv4(text);
}

/** The usual way of writing an address: `127.0.0.1`, `::1`, `::ffff:127.0.0.1`. */
export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return Array.from(ip.bytes).join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((ip.bytes[i]! << 8) | ip.bytes[i + 1]!);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return `::ffff:${Array.from(ip.bytes.subarray(12)).join('.')}`;
  }
  // The longest run of zero groups (two or more) becomes `::`.
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > bestLength && j - i >= 2) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** A range of addresses: `10.0.0.0/8`, `fc00::/7`. */
export interface IpRange {
  network: IpAddress;
  prefix: number;
}

export function parseRange(text: string): IpRange | undefined {
  const slash = text.lastIndexOf('/');
  if (slash === -1) {
    const ip = parseIp(text);
    return ip ? { network: ip, prefix: ip.family === 4 ? 32 : 128 } : undefined;
  }
  const ip = parseIp(text.slice(0, slash));
  const prefixText = text.slice(slash + 1);
  if (!ip || !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (prefix > (ip.family === 4 ? 32 : 128)) return undefined;
  return { network: ip, prefix };
}

export function inRange(ip: IpAddress, range: IpRange): boolean {
  if (ip.family !== range.network.family) return false;
  const full = Math.floor(range.prefix / 8);
  for (let i = 0; i < full; i += 1) if (ip.bytes[i] !== range.network.bytes[i]) return false;
  const rest = range.prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (ip.bytes[full]! & mask) === (range.network.bytes[full]! & mask);
}

export function rangeText(range: IpRange): string {
  const full = range.network.family === 4 ? 32 : 128;
  return range.prefix === full ? formatIp(range.network) : `${formatIp(range.network)}/${range.prefix}`;
}

/** What kind of special address an address is, in the words of a refusal ("a loopback address"). */
export type AddressKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cloud metadata'
  | 'carrier-grade NAT'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

export const KIND_WORDS: Record<AddressKind, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address',
  'cloud metadata': 'a cloud metadata address',
  'carrier-grade NAT': 'a carrier-grade NAT address',
  'unique-local': 'a unique-local address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

const ranges = (kind: AddressKind, ...texts: string[]) => texts.map((text) => ({ kind, range: parseRange(text)! }));

/**
 * Addresses that are not somewhere on the internet, after IANA's special-purpose registries.
 * Metadata services come first: they sit inside link-local and carrier-grade NAT ranges, and a
 * refusal should name them for what they are.
 */
const SPECIAL_RANGES: ReadonlyArray<{ kind: AddressKind; range: IpRange }> = [
  ...ranges(
    'cloud metadata',
    '169.254.169.254',
    '169.254.170.2',
    '169.254.169.123',
    '100.100.100.200',
    '168.63.129.16',
    'fd00:ec2::254',
    'fd00:ec2::23',
  ),
  ...ranges('unspecified', '0.0.0.0/8', '::/128'),
  ...ranges('loopback', '127.0.0.0/8', '::1/128'),
  ...ranges('private', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'),
  ...ranges('link-local', '169.254.0.0/16', 'fe80::/10'),
  ...ranges('carrier-grade NAT', '100.64.0.0/10'),
  ...ranges('unique-local', 'fc00::/7', 'fec0::/10'),
  ...ranges('multicast', '224.0.0.0/4', 'ff00::/8'),
  ...ranges(
    'reserved',
    '192.0.0.0/24',
    '192.0.2.0/24',
    '192.88.99.0/24',
    '198.18.0.0/15',
    '198.51.100.0/24',
    '203.0.113.0/24',
    '240.0.0.0/4',
    '100::/64',
    '2001::/23',
    '2001:db8::/32',
    '64:ff9b:1::/48',
  ),
];

/**
 * The IPv4 address an IPv6 address carries and that a network would deliver to: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) and 6to4
 * (`2002:aabb:ccdd::`).
 */
export function embeddedIpv4(ip: IpAddress): IpAddress | undefined {
  if (ip.family !== 6) return undefined;
  const b = ip.bytes;
  const zeros = (from: number, to: number) => b.subarray(from, to).every((byte) => byte === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return { family: 4, bytes: b.slice(12) };
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && b[15] === 1)) return { family: 4, bytes: b.slice(12) };
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return { family: 4, bytes: b.slice(12) };
  if (b[0] === 0x20 && b[1] === 0x02) return { family: 4, bytes: b.slice(2, 6) };
  return undefined;
}

/** The kind of special address `ip` is, or undefined for an address on the internet. */
export function specialKind(ip: IpAddress): AddressKind | undefined {
  const inner = embeddedIpv4(ip);
  if (inner) return specialKind(inner);
  return SPECIAL_RANGES.find((entry) => inRange(ip, entry.range))?.kind;
}
