import { expect } from 'vitest';
import { ConnectorError } from '../../../server/connectors/types';
import { createReach, type CheckedAddress, type ReachOptions, type Resolver } from '../../../server/reach/reach';
import { parseHostRules } from '../../../server/reach/host-rules';
import type { ConnectorContext } from '../../../server/connectors/registry';

/** The company a connector test's connections belong to. */
export const TEST_COMPANY_ID = '0d1f5c1e-7a3b-4c1d-9e2f-3a4b5c6d7e8f';

/**
 * What the tests' fakes and databases need: this machine's loopback addresses, and nothing else
 * beyond the public internet, as a server hosting many companies would judge it.
 */
export const TEST_ALLOWED_HOSTS = 'localhost,127.0.0.0/8,[::1],localhost:5432,127.0.0.1:5432,[::1]:5432';

/**
 * A resolver that never asks the network: the names it is given answer their addresses, every
 * other name is unknown (ENOTFOUND), so that no test sends a lookup anywhere (`localhost` is this
 * machine whatever a resolver says, in the reach guard itself).
 */
export function testResolver(names: Record<string, string | string[]> = {}): Resolver {
  return async (host) => {
    const found = names[host.toLowerCase().replace(/\.$/, '')];
    if (found === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return (Array.isArray(found) ? found : [found]).map((address): CheckedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

export function testReach(options: Partial<ReachOptions> = {}) {
  return createReach({
    allowed: parseHostRules('CONNECTION_ALLOWED_HOSTS', TEST_ALLOWED_HOSTS),
    denied: [],
    manyCompanies: async () => true,
    resolve: testResolver(),
    ...options,
  });
}

/** A connectors' context for tests: embedded databases in memory, loopback reachable. */
export function testConnectorContext(overrides: Partial<ConnectorContext> = {}): ConnectorContext {
  return { reach: testReach(), filesRoots: [], embedded: { maxPerCompany: 10, idleMs: 300_000 }, ...overrides };
}

/** What the HTTP-based connectors take: the test reach guard. */
export const TEST_HTTP = { reach: testReach() };

/** How a connector's work failed: its ConnectorError (work that succeeds fails the test). */
export async function connectorFailure(work: Promise<unknown>): Promise<ConnectorError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConnectorError);
  return error as ConnectorError;
}
