import { formatIp, KIND_WORDS, specialKind, type IpAddress } from './addresses';
import { normaliseHostName, ruleMatches, type HostRule } from './host-rules';

/**
 * Whether a company may connect to an address: the operator's denied entries first, then the
 * operator's allowed entries, then the default. The default depends on who the server serves: one
 * that may host more than one company (company sign-up open, or more than one company) keeps
 * companies off every address that is not on the internet (loopback, private, link-local,
 * unique-local, carrier-grade NAT, cloud metadata, reserved) and off the console's own database;
 * a single-company server, sign-up closed, lets its company reach them (the PostgreSQL on the
 * laptop it runs on).
 *
 * The console's own database is the one thing an allowed range does not open by itself: only an
 * allowed entry that names its port does (`127.0.0.1:5432`), so that allowing `10.0.0.0/8` for
 * the company databases on that network does not also hand out the server's own.
 */

export interface ReachRules {
  allowed: readonly HostRule[];
  denied: readonly HostRule[];
}

export interface Dial {
  /** The host as the company wrote it. */
  host: string;
  port: number;
  /** The address about to be dialled (the host itself when it is one). */
  address: IpAddress;
}

export type Verdict =
  { allowed: true } | { allowed: false; reason: string; operatorSetting: 'CONNECTION_ALLOWED_HOSTS' | 'CONNECTION_DENIED_HOSTS' };

export interface PolicyState {
  /** Company sign-up is open, or the server holds more than one company. */
  manyCompanies: boolean;
  /** The console's own database, when it is a server (its host name and its addresses, and its port). */
  ownDatabase: { names: readonly string[]; addresses: readonly IpAddress[]; port: number } | undefined;
}

const sameAddress = (a: IpAddress, b: IpAddress) => a.family === b.family && a.bytes.every((byte, index) => byte === b.bytes[index]);

export function judgeDial(rules: ReachRules, state: PolicyState, dial: Dial): Verdict {
  if (rules.denied.some((rule) => ruleMatches(rule, dial.host, dial.address, dial.port))) {
    return { allowed: false, reason: 'the operator denies it', operatorSetting: 'CONNECTION_DENIED_HOSTS' };
  }
  const allowedBy = rules.allowed.filter((rule) => ruleMatches(rule, dial.host, dial.address, dial.port));
  const own = state.ownDatabase;
  const isOwnDatabase =
    own !== undefined &&
    own.port === dial.port &&
    (own.names.includes(normaliseHostName(dial.host)) || own.addresses.some((address) => sameAddress(address, dial.address)));
  if (isOwnDatabase && state.manyCompanies && !allowedBy.some((rule) => rule.port === dial.port)) {
    return { allowed: false, reason: "the console's own database", operatorSetting: 'CONNECTION_ALLOWED_HOSTS' };
  }
  if (allowedBy.length > 0 || !state.manyCompanies) return { allowed: true };
  const kind = specialKind(dial.address);
  if (kind) return { allowed: false, reason: KIND_WORDS[kind], operatorSetting: 'CONNECTION_ALLOWED_HOSTS' };
  return { allowed: true };
}

/** "This server does not let companies connect to 127.0.0.1 (a loopback address). An operator can allow it with CONNECTION_ALLOWED_HOSTS." */
export function refusalMessage(dial: Dial, verdict: Extract<Verdict, { allowed: false }>, resolved: boolean): string {
  const address = formatIp(dial.address);
  const shown = dial.address.family === 6 ? `[${address}]` : address;
  const isOwn = verdict.reason === "the console's own database";
  const reached = isOwn ? `${shown}:${dial.port}` : address;
  const target = resolved ? `${dial.host} (it resolves to ${reached}, ${verdict.reason})` : `${reached} (${verdict.reason})`;
  const change =
    verdict.operatorSetting === 'CONNECTION_DENIED_HOSTS'
      ? 'An operator can change that with CONNECTION_DENIED_HOSTS.'
      : 'An operator can allow it with CONNECTION_ALLOWED_HOSTS.';
  return `This server does not let companies connect to ${target}. ${change}`;
}
