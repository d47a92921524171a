import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import type { Agent, buildConnector as BuildConnector, fetch as undiciFetch } from 'undici';
import { ConnectorError } from '../connectors/types';
import { formatIp, parseIp, type IpAddress } from './addresses';
import { normaliseHostName } from './host-rules';
import { judgeDial, refusalMessage, type PolicyState, type ReachRules } from './policy';

/**
 * The one guard every connection a company configures goes through, whatever dials it: the
 * database drivers, every HTTP-based integration, the object stores, git over HTTP and SMTP.
 *
 * A host is resolved once, every address it resolves to is judged (policy.ts), and only those
 * addresses are dialled: the drivers get a socket, a lookup or a dispatcher that answers the
 * checked addresses, never a name they would resolve again (a second lookup could answer
 * differently). Over HTTP the check is made by the dispatcher for every connection it opens, so a
 * redirect to another host is judged like the first one. A refusal is a ConnectorError of kind
 * 'refused', thrown before anything is dialled.
 */

export interface DialTarget {
  host: string;
  port: number;
}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

export interface CheckedTarget {
  /** As the company wrote it (brackets of an IPv6 address removed). */
  host: string;
  port: number;
  /** Every address the host resolved to, each allowed: the only ones to dial. */
  addresses: readonly CheckedAddress[];
  /** The name a TLS connection checks its certificate against (SNI): the host, when it is a name. */
  servername: string | undefined;
  /** A `lookup` for node's net, tls and http that answers the checked addresses and nothing else. */
  lookup: LookupFunction;
  /** A socket connecting to the checked addresses (for drivers that take a connecting stream, such as mysql2). */
  connect(): net.Socket;
  /** A socket not yet connected, whose `connect()`, however it is called, dials only the checked addresses (for drivers that connect the stream they are given, such as pg). */
  socket(): net.Socket;
}

export type Resolver = (host: string) => Promise<CheckedAddress[]>;

export interface ReachOptions extends ReachRules {
  /** Whether the server may host more than one company now (sign-up open, or several companies). */
  manyCompanies(): Promise<boolean>;
  /** The console's own database server, when it is one (DATABASE_URL): denied by default. */
  ownDatabase?: DialTarget;
  /** How names are resolved: the system's resolver unless told (tests give one that knows test names). */
  resolve?: Resolver;
  /** Called with each target just before it is dialled, after its check (tests count dials with it). */
  onDial?(target: CheckedTarget): void;
}

export interface Reach {
  /** Resolves and judges a target: answers what to dial, or throws a ConnectorError of kind 'refused'. */
  check(target: DialTarget): Promise<CheckedTarget>;
  /** `fetch` whose every connection, redirects included, is checked first. */
  fetch: typeof undiciFetch;
}

/** A refusal of the reach policy: a 400 at save and test, a failed step in a run. */
export class ReachRefused extends ConnectorError {
  constructor(message: string) {
    super(message, 'refused');
    this.name = 'ReachRefused';
  }
}

const RESOLVE_TIMEOUT_MS = 10_000;
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})?(\.[a-z0-9_]([a-z0-9_-]{0,62})?)*\.?$/i;

async function systemResolve(host: string): Promise<CheckedAddress[]> {
  const answers = await dns.promises.lookup(host, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
}

function withinTime<T>(work: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(late()), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

/** `localhost` and its sub-domains are this machine, whatever a resolver says (RFC 6761). */
function isLocalhostName(name: string): boolean {
  return name === 'localhost' || name.endsWith('.localhost');
}

export function createReach(options: ReachOptions): Reach {
  const resolve = options.resolve ?? systemResolve;
  let ownDatabase: Promise<PolicyState['ownDatabase']> | undefined;
  const ownDatabaseState = () => {
    const own = options.ownDatabase;
    if (!own) return Promise.resolve(undefined);
    ownDatabase ??= (async () => {
      const literal = parseIp(own.host);
      if (literal) return { names: [], addresses: [literal], port: own.port };
      const name = normaliseHostName(own.host);
      const found = isLocalhostName(name)
        ? [parseIp('127.0.0.1')!, parseIp('::1')!]
        : (await resolve(name).catch(() => [])).map((a) => parseIp(a.address)!).filter(Boolean);
      return { names: [name], addresses: found, port: own.port };
    })();
    return ownDatabase;
  };

  const addressesOf = async (host: string): Promise<{ addresses: IpAddress[]; resolved: boolean }> => {
    const literal = parseIp(host);
    if (literal) return { addresses: [literal], resolved: false };
    const name = normaliseHostName(host);
    if (!HOST_NAME.test(name)) throw new ConnectorError(`"${host}" is not a host name or address`, 'invalid');
    if (isLocalhostName(name)) return { addresses: [parseIp('127.0.0.1')!, parseIp('::1')!], resolved: true };
    let answers: CheckedAddress[];
    try {
      answers = await withinTime(resolve(name), RESOLVE_TIMEOUT_MS, () => new Error(`no answer within ${RESOLVE_TIMEOUT_MS / 1000} s`));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why = code === 'ENOTFOUND' || code === 'ENODATA' ? 'no such host' : error instanceof Error ? error.message : String(error);
      throw new ConnectorError(`The host ${host} could not be found (${why})`, 'unreachable');
    }
    const addresses = answers.map((answer) => parseIp(answer.address)).filter((ip): ip is IpAddress => ip !== undefined);
    if (addresses.length === 0) throw new ConnectorError(`The host ${host} could not be found (no address)`, 'unreachable');
    return { addresses, resolved: true };
  };

  const check = async (target: DialTarget): Promise<CheckedTarget> => {
    const host = target.host.trim().replace(/^\[(.*)\]$/, '$1');
    if (!Number.isInteger(target.port) || target.port < 1 || target.port > 65535) {
      throw new ConnectorError(`The port ${target.port} is not a port from 1 to 65535`, 'invalid');
    }
    const [{ addresses, resolved }, manyCompanies, own] = await Promise.all([
      addressesOf(host),
      options.manyCompanies(),
      ownDatabaseState(),
    ]);
    for (const address of addresses) {
      const dial = { host, port: target.port, address };
      const verdict = judgeDial(options, { manyCompanies, ownDatabase: own }, dial);
      if (!verdict.allowed) throw new ReachRefused(refusalMessage(dial, verdict, resolved));
    }
    const checked = addresses.map((ip) => ({ address: formatIp(ip), family: ip.family }));
    const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
      const wanted = typeof lookupOptions === 'object' ? lookupOptions : {};
      const family = wanted.family === 4 || wanted.family === 6 ? wanted.family : undefined;
      const answers = family ? checked.filter((entry) => entry.family === family) : checked;
      const done = callback as (error: NodeJS.ErrnoException | null, address: unknown, family?: number) => void;
      if (answers.length === 0) {
        const error = Object.assign(new Error(`no IPv${family} address was allowed for ${host}`), { code: 'ENOTFOUND' });
        process.nextTick(() => done(error, undefined));
      } else if (wanted.all) process.nextTick(() => done(null, answers));
      else process.nextTick(() => done(null, answers[0]!.address, answers[0]!.family));
    };
    const result: CheckedTarget = {
      host,
      port: target.port,
      addresses: checked,
      servername: parseIp(host) ? undefined : normaliseHostName(host),
      lookup,
      connect: () => {
        options.onDial?.(result);
        return net.connect({ host, port: target.port, lookup, autoSelectFamily: checked.length > 1 });
      },
      socket: () => {
        const socket = new net.Socket();
        const connect = socket.connect.bind(socket) as (options: net.TcpSocketConnectOpts, listener?: () => void) => net.Socket;
        socket.connect = ((...args: unknown[]) => {
          options.onDial?.(result);
          const listener = args.find((arg): arg is () => void => typeof arg === 'function');
          return connect({ host, port: target.port, lookup, autoSelectFamily: checked.length > 1 }, listener);
        }) as typeof socket.connect;
        return socket;
      },
    };
    return result;
  };

  // undici is loaded with the first outbound call, and the dispatcher made then: most processes
  // never make one, and an idle server need not hold its code (docs/benchmarks.md, "Memory").
  let dispatcher: Promise<Agent> | undefined;
  const dispatcherOnce = () =>
    (dispatcher ??= import('undici').then(
      ({ Agent, buildConnector }) =>
        new Agent({
          connect: (connectOptions, callback) => {
            const defaultPort = connectOptions.protocol === 'https:' ? 443 : 80;
            const port = connectOptions.port ? Number(connectOptions.port) : defaultPort;
            check({ host: connectOptions.hostname, port }).then(
              (checked) => {
                options.onDial?.(checked);
                const connector = buildConnector({ lookup: checked.lookup, timeout: 10_000 } as BuildConnector.BuildOptions);
                connector(
                  { ...connectOptions, hostname: checked.host, servername: connectOptions.servername ?? checked.servername ?? undefined },
                  callback,
                );
              },
              (error: Error) => callback(error, null),
            );
          },
        }),
    ));

  const guardedFetch = (async (input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) => {
    const [{ fetch }, agent] = await Promise.all([import('undici'), dispatcherOnce()]);
    return fetch(input, { ...init, dispatcher: agent });
  }) as typeof undiciFetch;

  return { check, fetch: guardedFetch };
}
