import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckedTarget } from '../../server/reach/reach';
import { DENIED_FUNCTIONS } from '../../server/sql/denied-functions';
import { createTestServer, type TestServer } from './harness';
import { call, createOtherCompany, signInAdmin } from './helpers';
import { changedTables, companyTables, tenantDigester, type TenantDigest } from './hostile/digest';
import { seedTenantRecords, type TenantRecords } from './hostile/fixtures';
import { testResolver } from './connectors/test-context';

/**
 * Property-based attacks on what a company configures: generated hosts (every special range, in
 * every spelling the system's resolver accepts, and names that resolve to them), ports, URLs
 * (odd schemes, credentials in the authority, fragments that hide the real host), local paths and
 * read-only SQL with denied functions in any case, qualification and place. On a server with the
 * policy it has out of the box, each one must be refused with a 400 and a message, before anything
 * is dialled, leaving both companies' rows as they were.
 *
 * `HOSTILE_SEED=<n>` explores other values, `HOSTILE_RUNS=<n>` sends more per case.
 */

const SEED = Number(process.env.HOSTILE_SEED ?? 20_261_126);
const RUNS = Number(process.env.HOSTILE_RUNS ?? 24);

// ---- Generators ---------------------------------------------------------------------------------------

const byte = fc.integer({ min: 0, max: 255 });

/** An IPv4 address of a special range, as four bytes. */
const specialIpv4 = fc.oneof(
  fc.tuple(fc.constant(127), byte, byte, byte),
  fc.tuple(fc.constant(10), byte, byte, byte),
  fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), byte, byte),
  fc.tuple(fc.constant(192), fc.constant(168), byte, byte),
  fc.tuple(fc.constant(169), fc.constant(254), byte, byte),
  fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), byte, byte),
  fc.tuple(fc.constant(0), byte, byte, byte),
  fc.constant([169, 254, 169, 254] as [number, number, number, number]),
);

/** Every way inet_aton (and so the system's resolver) reads those bytes. */
function ipv4Spellings([a, b, c, d]: [number, number, number, number]) {
  const whole = ((a * 256 + b) * 256 + c) * 256 + d;
  const part = (value: number, style: number) =>
    style === 0 ? String(value) : style === 1 ? `0x${value.toString(16)}` : `0${value.toString(8)}`;
  return fc.oneof(
    fc.constant(`${a}.${b}.${c}.${d}`),
    fc.constant(`${a}.${b}.${c}.${d}.`),
    fc.constant(String(whole)),
    fc.constant(`0x${whole.toString(16)}`),
    fc.constant(`${a}.${(b * 256 + c) * 256 + d}`),
    fc.constant(`${a}.${b}.${c * 256 + d}`),
    fc
      .tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }))
      .map(([s1, s2, s3, s4]) => `${part(a, s1)}.${part(b, s2)}.${part(c, s3)}.${part(d, s4)}`),
    fc.constant(`::ffff:${a}.${b}.${c}.${d}`),
    fc.constant(`[::ffff:${a}.${b}.${c}.${d}]`),
    fc.constant(`64:ff9b::${a}.${b}.${c}.${d}`),
  );
}

const hex16 = fc.integer({ min: 0, max: 0xffff }).map((value) => value.toString(16));
const specialIpv6 = fc.oneof(
  fc.constantFrom('::1', '0:0:0:0:0:0:0:1', '[::1]', '0000:0000:0000:0000:0000:0000:0000:0001', '::', '[::]'),
  fc.tuple(fc.integer({ min: 0xfc00, max: 0xfdff }), hex16, hex16).map(([head, x, y]) => `${head.toString(16)}:${x}::${y}`),
  fc.tuple(fc.integer({ min: 0xfe80, max: 0xfebf }), hex16).map(([head, x]) => `${head.toString(16)}::${x}`),
  fc.constantFrom('fd00:ec2::254', 'fe80::1%eth0', 'ff02::1'),
);

/** Names this server's test resolver answers with special addresses, and names that are this machine by definition. */
const RESOLVED_NAMES: Record<string, string | string[]> = {
  'db.attack.test': '127.0.0.1',
  'lake.attack.test': '10.1.2.3',
  'meta.attack.test': '169.254.169.254',
  'both.attack.test': ['93.184.216.34', '192.168.0.10'],
  'six.attack.test': 'fd12::1',
  'nat.attack.test': '100.100.100.200',
};
const hostileName = fc.oneof(
  fc.constantFrom(...Object.keys(RESOLVED_NAMES)),
  fc.constantFrom(...Object.keys(RESOLVED_NAMES)).map((name) => `${name.toUpperCase()}.`),
  fc.constantFrom('localhost', 'LOCALHOST', 'localhost.', 'db.localhost', 'a.b.localhost'),
);

const hostileHost = fc.oneof(
  { weight: 5, arbitrary: specialIpv4.chain(ipv4Spellings) },
  { weight: 2, arbitrary: specialIpv6 },
  { weight: 3, arbitrary: hostileName },
);

/** A host as a URL's authority writes it: an IPv6 address in brackets. */
const urlHost = hostileHost.map((host) => (host.includes(':') && !host.startsWith('[') ? `[${host.replace(/%.*$/, '')}]` : host));

const hostileUrl = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom('http', 'https', 'HTTPS'),
        urlHost,
        fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
        fc.constantFrom('', '/', '/api', '/2.0/x?y=1'),
      )
      .map(([scheme, host, port, rest]) => `${scheme}://${host}${port ? `:${port}` : ''}${rest}`),
  },
  // A trusted-looking name in the userinfo, the real host after it.
  { weight: 2, arbitrary: urlHost.map((host) => `https://hooks.slack.com@${host}/services/x`) },
  { weight: 1, arbitrary: urlHost.map((host) => `https://user:pass@${host}:8443/x`) },
  // Schemes that are not http(s).
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('file', 'gopher', 'ftp', 'dict', 'ldap', 'jar', 'javascript'), urlHost)
      .map(([scheme, host]) => `${scheme}://${host}/x`),
  },
);

const hostilePath = fc.oneof(
  fc.constantFrom('/', '/etc', '/etc/passwd', '/proc/self', '/root/.ssh', '/tmp', '//etc', '/./etc', '/etc/../etc', ' /etc', '~', '~/.ssh'),
  fc.constantFrom('..', '../', '../..', 'a/../../b', 'exports/../../../', '.\\..\\..', 'x/..', '..%2f..'),
  fc.constantFrom('file:///etc', 'file://localhost/etc', 'FILE:///', 'a\u0000b'),
  fc
    .tuple(fc.constantFrom('/', '../', 'x/../../'), fc.array(fc.constantFrom('..', 'etc', 'var', 'x'), { minLength: 1, maxLength: 5 }))
    .map(([head, parts]) => head + parts.join('/')),
);

/** A denied function, in any case and qualification, hidden somewhere in an otherwise plain query. */
function hostileSql(dialect: 'postgres' | 'mysql') {
  const denied = DENIED_FUNCTIONS[dialect].filter((entry) => entry.argumentCount === undefined);
  const name = fc
    .constantFrom(...denied)
    .chain((entry) =>
      entry.prefix ? fc.constantFrom('x', 'import', 'all', 'dir').map((tail) => `${entry.name}${tail}`) : fc.constant(entry.name),
    )
    .chain((fn) =>
      fc.constantFrom(
        fn,
        fn.toUpperCase(),
        fn.charAt(0).toUpperCase() + fn.slice(1),
        ...(dialect === 'postgres' ? [`pg_catalog.${fn}`, `"pg_catalog".${fn}`] : []),
      ),
    );
  const call = name.map((fn) => `${fn}('x')`);
  const placed = call.chain((expression) =>
    fc.constantFrom(
      `select ${expression} from items`,
      `select id from items where name = ${expression}`,
      `select * from (select ${expression} as v) s`,
      `with c as (select ${expression} as v) select * from c`,
      `select id from items order by ${expression}`,
      `select id, count(*) over (partition by ${expression}) from items`,
      `select id from items union all select ${expression}`,
    ),
  );
  return fc.oneof(
    { weight: 8, arbitrary: placed },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'select 1; select 2',
        'delete from items',
        'select * from items for update',
        'update items set name = null',
      ),
    },
  );
}

// ---- The server -------------------------------------------------------------------------------------------

let server: TestServer;
let token: string;
let records: TenantRecords;
let granted: string;
let digests: () => Promise<TenantDigest[]>;
let baseline: TenantDigest[];
const dials: CheckedTarget[] = [];

beforeAll(async () => {
  granted = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-settings-'));
  server = await createTestServer(
    { reach: { allowedHosts: [], deniedHosts: [] }, filesRoots: [granted] },
    { reach: { resolve: testResolver(RESOLVED_NAMES), onDial: (target) => dials.push(target) } },
  );
  token = (await signInAdmin(server)).accessToken!;
  records = await seedTenantRecords(server, token);
  const other = await createOtherCompany(server, 'initech');
  fs.mkdirSync(path.join(granted, other.companyId), { recursive: true });
  const tables = await companyTables(server.db);
  const mine = tenantDigester(server.db, tables, server.company.companyId);
  const theirs = tenantDigester(server.db, tables, other.companyId);
  digests = () => Promise.all([mine(), theirs()]);
  baseline = await digests();
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (granted) fs.rmSync(granted, { recursive: true, force: true });
});

interface Attack<T> {
  values: fc.Arbitrary<T>;
  request(value: T): { method: 'POST' | 'PUT'; path: string; body: Record<string, unknown> };
}

const connection = (type: string, settings: Record<string, unknown>) => ({
  method: 'POST' as const,
  path: '/connections',
  body: { name: `Attack ${crypto.randomBytes(3).toString('hex')}`, type, settings },
});

const ATTACKS: Record<string, Attack<unknown>> = {
  'PostgreSQL host': {
    values: hostileHost,
    request: (host: string) => connection('postgresql', { host, database: 'test', user: 'postgres' }),
  } as unknown as Attack<unknown>,
  'MySQL host and port': {
    values: fc.tuple(hostileHost, fc.integer({ min: 1, max: 65535 })),
    request: ([host, port]: [string, number]) => connection('mysql', { host, port, database: 'test', user: 'root' }),
  } as unknown as Attack<unknown>,
  'S3 endpoint': {
    values: hostileUrl,
    request: (endpoint: string) =>
      connection('s3', { endpoint, bucket: 'data', accessKeyId: 'AKID', secretAccessKey: 'secret', pathStyle: true }),
  } as unknown as Attack<unknown>,
  'Databricks workspace URL': {
    values: hostileUrl,
    request: (host: string) => connection('databricks', { host, token: 'dapi-1' }),
  } as unknown as Attack<unknown>,
  'Slack webhook URL': {
    values: hostileUrl,
    request: (webhookUrl: string) => connection('slack', { mode: 'webhook', webhookUrl }),
  } as unknown as Attack<unknown>,
  'Bitbucket API URL': {
    values: hostileUrl,
    request: (apiUrl: string) => connection('bitbucket', { workspace: 'acme', email: 'ci@acme.test', apiToken: 'pw', apiUrl }),
  } as unknown as Attack<unknown>,
  'git URL': {
    values: fc.oneof(hostileUrl, hostilePath),
    request: (url: string) => connection('git', { url }),
  } as unknown as Attack<unknown>,
  'files folder': { values: hostilePath, request: (folder: string) => connection('files', { path: folder }) } as unknown as Attack<unknown>,
  'SMTP host': {
    values: fc.tuple(hostileHost, fc.constantFrom(25, 465, 587, 2525)),
    request: ([host, port]: [string, number]) => ({
      method: 'PUT',
      path: '/settings/email',
      body: { host, port, fromAddress: 'ops@acme.test' },
    }),
  } as unknown as Attack<unknown>,
  'custom SQL rule (embedded, PostgreSQL dialect)': {
    values: hostileSql('postgres'),
    request: (sql: string) => ({
      method: 'POST',
      path: `/table/dataQuality/${records.tableId}`,
      body: { name: `Rule ${crypto.randomBytes(3).toString('hex')}`, functionName: 'custom_sql', params: { sql } },
    }),
  } as unknown as Attack<unknown>,
};

describe('hostile connection settings', () => {
  for (const [name, attack] of Object.entries(ATTACKS)) {
    it(`${name}: refused with a 400 and a message, nothing dialled, nothing stored`, async () => {
      await fc.assert(
        fc.asyncProperty(attack.values, async (value) => {
          const { method, path: url, body } = attack.request(value);
          const dialled = dials.length;
          const res = await call(server, method, url, { token, body });
          const what = `${name} = ${JSON.stringify(value)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, what).toBe(400);
          const message = (JSON.parse(res.body) as { message?: unknown }).message;
          expect(typeof message === 'string' && message.trim().length > 0, what).toBe(true);
          expect(dials.length, `dialled: ${what}`).toBe(dialled);
          const now = await digests();
          expect(changedTables(baseline[0]!, now[0]!), `rows changed: ${what}`).toEqual([]);
          expect(changedTables(baseline[1]!, now[1]!), `the other company's rows changed: ${what}`).toEqual([]);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }, 120_000);
  }

  it('dialled nothing at all', () => {
    expect(dials).toEqual([]);
  });
});
