import crypto from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness';
import { call, createActiveUser, signInAdmin } from './helpers';
import { seedTenantRecords, type TenantRecords } from './hostile/fixtures';
import { changedTables, companyTables, tenantDigester, type TenantDigest } from './hostile/digest';
import { HOSTILE_STRINGS, longString } from './hostile/values';

/**
 * Hostile values inside otherwise valid bodies, for the routes whose schemas ask more than a
 * generated body gets right (tests/server/hostile-input.test.ts sends those, and its requests are
 * refused by validation before the handler): each case is a body the route accepts, and one of its
 * text fields at a time is replaced by an injection string, odd Unicode, a path traversal or a
 * long text, so the value goes past validation into the handler and the database. Every answer
 * must be below 500, a refusal must carry a message and leave the company's rows as they were, and
 * each route must have taken some of them through its handler (so the cases stay valid).
 */

const SEED = Number(process.env.HOSTILE_SEED ?? 20_251_124);
const RUNS = Number(process.env.HOSTILE_RUNS ?? 16);

interface Case {
  method: 'POST' | 'PUT';
  /** The path, with a fresh id where the route creates at one. */
  path: () => string;
  body: () => Record<string, unknown>;
  /** The text fields poisoned one at a time (dotted paths into the body). */
  fields: string[];
  /** Public routes are called without the admin's token. */
  anonymous?: boolean;
  /** Refusals by the handler (past validation) that this route gives to what it does not know: 401 and 429 for a sign-in. */
  handlerRefusals?: number[];
}

let server: TestServer;
let token: string;
let records: TenantRecords;
let destinationId: string;
let pairId: string;
let reportId: string;
let colleagueId: string;
let digest: () => Promise<TenantDigest>;
let lastAddress = 0;
const SIGNIN_PASSWORD = 'Signin-target-42';
const unique = () => crypto.randomBytes(4).toString('hex');

const CASES: Record<string, Case> = {
  'POST /connections': {
    method: 'POST',
    path: () => '/connections',
    body: () => ({ name: `Shop ${unique()}`, type: 'embedded', settings: { database: `hostile-valid-${unique()}` } }),
    fields: ['name', 'settings.database'],
  },
  'PUT /source/destination/:id': {
    method: 'PUT',
    // The pair exists: each request renames it (a new id for the same two would be refused as a second pair).
    path: () => `/source/destination/${pairId}`,
    body: () => ({ sourceId: records.connectionId, destinationId, name: `Pair ${unique()}` }),
    fields: ['name'],
  },
  'POST /table/dataQuality/:id': {
    method: 'POST',
    path: () => `/table/dataQuality/${records.tableId}`,
    body: () => ({ name: `Ids are present ${unique()}`, functionName: 'not_null', columnName: 'id' }),
    fields: ['name', 'columnName'],
  },
  'POST /workflow': {
    method: 'POST',
    path: () => '/workflow',
    body: () => ({
      name: `Nightly ${unique()}`,
      pairId,
      tasks: [
        { id: 'check', name: 'Check items', type: 'quality', tableIds: [records.tableId] },
        { id: 'tell', name: 'Tell the team', type: 'notify', message: 'Checked' },
      ],
    }),
    fields: ['name', 'tasks.0.id', 'tasks.0.name', 'tasks.1.message'],
  },
  'POST /shares': {
    method: 'POST',
    path: () => '/shares',
    body: () => ({ kind: 'report', reportId, userIds: [colleagueId], message: 'Have a look' }),
    fields: ['message'],
  },
  'POST /user': {
    method: 'POST',
    path: () => '/user',
    body: () => ({ email: `invitee-${unique()}@acme.test`, firstName: 'Ivy', lastName: 'Invitee', roleId: server.company.memberRoleId }),
    fields: ['firstName', 'lastName'],
  },
  'POST /signin': {
    method: 'POST',
    path: () => '/signin',
    // A member of its own, whose account the wrong passwords block (429) without touching the admin's.
    body: () => ({ email: 'signin-target@acme.test', password: SIGNIN_PASSWORD, companyHostname: server.company.hostname }),
    fields: ['password'],
    anonymous: true,
    handlerRefusals: [401, 429],
  },
};

/** The body with the value at a dotted path replaced. */
function poisoned(body: Record<string, unknown>, field: string, value: string): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = field.split('.');
  let at: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[keys.at(-1)!] = value;
  return copy;
}

const hostileText = () =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: longString(300, 5_000) },
  );

function send(entry: Case, body: unknown) {
  lastAddress += 1;
  return server.app.inject({
    method: entry.method,
    url: `/api/v1${entry.path()}`,
    headers: entry.anonymous ? {} : { 'x-access-token': token },
    payload: body as never,
    // A different documentation-range address each time, so that throttling per address does not answer.
    remoteAddress: `198.51.100.${(lastAddress % 250) + 1}`,
  });
}

beforeAll(async () => {
  server = await createTestServer();
  token = (await signInAdmin(server)).accessToken!;
  records = await seedTenantRecords(server, token);
  const made = async (path: string, body: unknown, status = 201) => {
    const res = await call(server, path.startsWith('/source') ? 'PUT' : 'POST', path, { token, body });
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  destinationId = (
    await made('/connections', {
      name: 'Lake',
      type: 'embedded',
      isSource: false,
      isDestination: true,
      settings: { database: `hostile-lake-${unique()}` },
    })
  ).id;
  pairId = crypto.randomUUID();
  await made(`/source/destination/${pairId}`, { sourceId: records.connectionId, destinationId });
  colleagueId = (await createActiveUser(server, token, { email: 'colleague@acme.test' })).id;
  await createActiveUser(server, token, { email: 'signin-target@acme.test', password: SIGNIN_PASSWORD });
  reportId = (await made('/reports', { format: 'csv', recipients: [colleagueId] })).id;
  digest = tenantDigester(server.db, await companyTables(server.db), server.company.companyId);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('hostile values inside valid bodies', () => {
  for (const [route, entry] of Object.entries(CASES)) {
    it(`${route}: past validation, answered below 500, refusals with a message and nothing stored`, async () => {
      // The case itself is valid: the route takes it.
      const valid = await send(entry, entry.body());
      expect(valid.statusCode, valid.body).toBeLessThan(300);
      let reached = 0;
      let baseline = await digest();
      for (const field of entry.fields) {
        await fc.assert(
          fc.asyncProperty(hostileText(), async (value) => {
            const res = await send(entry, poisoned(entry.body(), field, value));
            const what = `${route} with ${field} = ${JSON.stringify(value.slice(0, 80))}${value.length > 80 ? `… (${value.length} characters)` : ''} → ${res.statusCode} ${res.body.slice(0, 300)}`;
            expect(res.statusCode, what).toBeLessThan(500);
            if (res.statusCode < 300 || res.statusCode === 409 || entry.handlerRefusals?.includes(res.statusCode)) reached += 1;
            if (res.statusCode >= 400) {
              const message = (JSON.parse(res.body) as { message?: unknown }).message;
              expect(typeof message === 'string' && message.trim().length > 0, `a refusal without a message: ${what}`).toBe(true);
              expect(changedTables(baseline, await digest()), `rows changed by a refused request: ${what}`).toEqual([]);
            } else {
              baseline = await digest();
            }
          }),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
      }
      expect(reached, `${route}: requests that got past validation`).toBeGreaterThan(entry.fields.length * 2);
    }, 120_000);
  }
});
