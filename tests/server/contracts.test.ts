import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACTS, pageCatalogue, policyCatalogue, PAGE_GROUPS, SCREENS } from '../../common/contract';
import { defineContract, everyAction } from '../../common/contract/define';
import { routeSpec, type RouteKind } from '../../common/contract/routes';
import { createTestServer, type TestServer } from './harness';
import { collectRouteTable, type RouteEntry } from './route-table';

/**
 * The contracts are what the console calls (common/contract): every call a contract names must
 * be a route of the server, with the method the console uses, guarded by the contract's policy;
 * and the catalogues derived from them must be whole and unambiguous.
 */

let server: TestServer;
let routes: RouteEntry[];

beforeAll(async () => {
  server = await createTestServer();
  routes = await collectRouteTable(server.app);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

/** `/users/filter/{limit}/{offset}/{order}/{field}?q={search}` → its path segments, placeholders as `*`. */
function contractSegments(path: string): string[] {
  return path
    .split('?')[0]
    .split('/')
    .filter(Boolean)
    .map((segment) => (/^\{\w+\}$/.test(segment) ? '*' : segment));
}

function routeSegments(url: string): string[] {
  return url
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? '*' : segment));
}

/** The server's route a contract's call reaches: same method, and each segment equal or a parameter. */
function serverRouteOf(method: string, path: string): RouteEntry | undefined {
  const wanted = contractSegments(path);
  return routes.find((route) => {
    if (route.method !== method) return false;
    const have = routeSegments(route.url);
    return have.length === wanted.length && have.every((segment, index) => segment === '*' || segment === wanted[index]);
  });
}

const calls = CONTRACTS.flatMap((contract) => [
  ...(Object.entries(contract.routes) as [RouteKind, NonNullable<(typeof contract.routes)[RouteKind]>][]).map(([kind, route]) => ({
    contract,
    kind: kind as string,
    ...routeSpec(route, kind),
  })),
  ...Object.entries(contract.related ?? {}).map(([target, route]) => ({ contract, kind: `by ${target}`, ...routeSpec(route, 'list') })),
  ...Object.entries(contract.actions ?? {}).map(([name, action]) => ({ contract, kind: `action ${name}`, ...action })),
]);

describe('every call of every contract', () => {
  it.each(calls.map((call) => [`${call.contract.name} ${call.kind}: ${call.method} ${call.path}`, call] as const))(
    '%s is a route of the server, guarded by its policy',
    (_, call) => {
      const route = serverRouteOf(call.method, call.path);
      expect(route, `${call.method} ${call.path}`).toBeDefined();
      const policy = route!.config.policy as readonly [string, string] | undefined;
      if (policy) expect(policy[0]).toBe(call.contract.policy.resource);
    },
  );

  it('each action is served as declared: its summary in the OpenAPI document', () => {
    const document = server.app.swagger() as unknown as { paths: Record<string, Record<string, { summary?: string }>> };
    const declared = CONTRACTS.flatMap((contract) => Object.values(contract.actions ?? {}));
    expect(declared.length).toBeGreaterThan(0);
    for (const action of declared) {
      const operation = document.paths[`/api/v1${action.path.split('?')[0]}`]?.[action.method.toLowerCase()];
      expect(operation?.summary, `${action.method} ${action.path}`).toBe(action.summary);
    }
  });

  it('each action is public on the server exactly when it declares public access', () => {
    const declared = CONTRACTS.flatMap((contract) => Object.values(contract.actions ?? {}));
    expect(declared.some((action) => action.access === 'public')).toBe(true);
    for (const action of declared) {
      const route = serverRouteOf(action.method, action.path);
      expect(route?.config.public === true, `${action.method} ${action.path}`).toBe(action.access === 'public');
    }
  });

  it('finds a call the server does not answer (the check can fail)', () => {
    const made = defineContract({
      name: 'labels',
      routes: { list: '/labels/{offset}/{limit}' },
      policy: everyAction('labels', 'Labels', 99),
    });
    expect(serverRouteOf(routeSpec(made.routes.list, 'list').method, '/labels/0/10')).toBeUndefined();
    expect(serverRouteOf('POST', '/users/{offset}/{limit}')).toBeUndefined();
    expect(serverRouteOf('GET', '/users/{offset}/{limit}')).toBeDefined();
  });
});

describe('the catalogues derived from the contracts', () => {
  it('name each policy resource once, and every policy a route checks is one of them with its action', () => {
    const catalogue = policyCatalogue();
    expect(new Set(catalogue.map((policy) => policy.resource)).size).toBe(catalogue.length);
    for (const route of routes) {
      const policy = route.config.policy as readonly [string, string] | undefined;
      if (!policy) continue;
      const declared = catalogue.find((entry) => entry.resource === policy[0]);
      expect(declared, `${route.method} ${route.url} checks ${policy[0]}`).toBeDefined();
      expect(declared!.actions, `${route.method} ${route.url} checks ${policy.join('/')}`).toContain(policy[1]);
    }
  });

  it('give each page one id, a known group and a place; an entity page opens its list', () => {
    const pages = pageCatalogue();
    expect(pages).toHaveLength(CONTRACTS.filter((contract) => contract.page).length + SCREENS.length);
    expect(new Set(pages.map((page) => page.id)).size).toBe(pages.length);
    expect(new Set(pages.map((page) => page.order)).size).toBe(pages.length);
    for (const page of pages) expect(Object.keys(PAGE_GROUPS)).toContain(page.group);
    for (const contract of CONTRACTS) {
      if (contract.page) expect(contract.page.url).toBe(`/${contract.name}`);
    }
  });

  it('refuse a policy resource declared twice rather than pick one', () => {
    const twice = defineContract({ ...CONTRACTS[0], name: 'again', page: undefined, policy: { ...CONTRACTS[0].policy } });
    expect(() => policyCatalogue([...CONTRACTS, twice], SCREENS)).toThrow(/declared twice/);
  });

  it("are what the server serves: the page catalogue, and an admin's menu holding every page", async () => {
    const { call, signInAdmin } = await import('./helpers');
    const admin = await signInAdmin(server);
    const served = await call(server, 'GET', '/roles/policies/pages', { token: admin.accessToken });
    expect(served.statusCode).toBe(200);
    expect((served.json().data as { id: string }[]).map((page) => page.id)).toEqual(pageCatalogue().map((page) => page.id));
    const menu = JSON.stringify(admin.navItems);
    for (const page of pageCatalogue()) expect(menu).toContain(`"${page.url}"`);
  });
});
