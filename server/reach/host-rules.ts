import { inRange, parseRange, rangeText, type IpAddress, type IpRange } from './addresses';

/**
 * The operator's lists of what companies may and may not connect to (CONNECTION_ALLOWED_HOSTS,
 * CONNECTION_DENIED_HOSTS): comma-separated entries, each a host name (`db.internal`), every
 * name under a domain (`*.corp.example`), an address (`10.1.2.3`, `[fd00::5]`) or a range
 * (`10.0.0.0/8`, `[fd00::/8]`), with an optional port (`db.internal:5432`, `10.0.0.0/8:5432`,
 * `[::1]:9000`). A name entry matches the host as the company wrote it; an address or range
 * entry matches every address the host resolves to.
 */

export type HostRule =
  | { kind: 'name'; name: string; wildcard: boolean; port?: number; text: string }
  | { kind: 'range'; range: IpRange; port?: number; text: string };

/** A host name as compared: lower case, without the root's trailing dot. */
export function normaliseHostName(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

const NAME = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,62})?)(\.[a-z0-9_]([a-z0-9_-]{0,62})?)*$/i;

function portOf(text: string | undefined, entry: string, setting: string): number | undefined {
  if (text === undefined) return undefined;
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > 65535) throw new Error(`${setting}: "${entry}" has a port that is not 1 to 65535`);
  return port;
}

function parseEntry(entry: string, setting: string): HostRule {
  let hostPart = entry;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) {
    hostPart = bracketed[1]!;
    portText = bracketed[2];
  } else if ((entry.match(/:/g) ?? []).length === 1) {
    [hostPart, portText] = entry.split(':') as [string, string];
  }
  const port = portOf(portText, entry, setting);
  const range = parseRange(hostPart);
  if (range) return { kind: 'range', range, port, text: entry };
  const name = normaliseHostName(hostPart);
  if (!NAME.test(name) || name.length > 253) {
    throw new Error(
      `${setting}: "${entry}" is neither a host name, an address nor a range such as 10.0.0.0/8 (an IPv6 one in brackets with a port: [fd00::/8]:5432)`,
    );
  }
  const wildcard = name.startsWith('*.');
  return { kind: 'name', name: wildcard ? name.slice(2) : name, wildcard, port, text: entry };
}

/** The entries of one setting; a malformed entry stops the server at start, naming it. */
export function parseHostRules(setting: string, value: string | undefined): HostRule[] {
  if (value === undefined || value.trim() === '') return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => parseEntry(entry, setting));
}

/** Whether a rule covers a dial of `host` (as written, normalised) at `port` reaching `address`. */
export function ruleMatches(rule: HostRule, host: string, address: IpAddress | undefined, port: number): boolean {
  if (rule.port !== undefined && rule.port !== port) return false;
  if (rule.kind === 'range') return address !== undefined && inRange(address, rule.range);
  const name = normaliseHostName(host);
  return rule.wildcard ? name.endsWith(`.${rule.name}`) : name === rule.name;
}

/** How an entry reads in messages and docs. */
export function ruleText(rule: HostRule): string {
  const port = rule.port === undefined ? '' : `:${rule.port}`;
  if (rule.kind === 'name') return `${rule.wildcard ? '*.' : ''}${rule.name}${port}`;
  const text = rangeText(rule.range);
  return rule.range.network.family === 6 && port ? `[${text}]${port}` : `${text}${port}`;
}
