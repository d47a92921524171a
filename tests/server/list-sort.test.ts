import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessEventsContract } from '../../common/contract/access-events';
import { apikeysContract } from '../../common/contract/apikeys';
import { auditsContract } from '../../common/contract/audits';
import { connectionsContract } from '../../common/contract/connections';
import type { EntityContract } from '../../common/contract/define';
import { jobRunsContract } from '../../common/contract/job-runs';
import { tablesContract } from '../../common/contract/tables';
import { workflowsContract } from '../../common/contract/workflows';
import {
  accessEvents,
  apiKeys,
  connections,
  dataTables,
  jobRuns,
  sourceDestinations,
  systemAudits,
  workflows,
} from '../../server/db/schema';
import { createTestServer, type TestServer } from './harness';
import { call, signInAdmin } from './helpers';

/**
 * Every list that sorts by `?sort={field}&order={order}` on its filter route: each sortable field
 * of its contract, both ways. The rows are seeded so that each field grows with the rows' age,
 * so an order by the field differs from the list's own newest-first order.
 */

const OLD = Date.parse('2020-03-01T10:00:00.000Z');
const at = (i: number) => new Date(OLD + i * 60_000);
const PERIOD = { startDate: '2020-03-01', endDate: '2020-03-01' };

type Row = Record<string, unknown>;

/** A value as PostgreSQL orders it here: text case-insensitively (names are ordered by lower()), null apart. */
function key(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  return String(value).toLowerCase();
}

function expectOrdered(rows: Row[], field: string, order: 'ASC' | 'DESC') {
  const keys = rows.map((row) => key(row[field]));
  for (let i = 1; i < keys.length; i++) {
    const [a, b] = [keys[i - 1], keys[i]];
    // PostgreSQL puts nulls last going up and first going down.
    if (a === null) expect(order, `${field}: null before a value`).toBe('DESC');
    else if (b === null) expect(order, `${field}: null after a value`).toBe('ASC');
    else if (order === 'ASC') expect(a <= b, `${field} ASC: ${String(a)} then ${String(b)}`).toBe(true);
    else expect(a >= b, `${field} DESC: ${String(a)} then ${String(b)}`).toBe(true);
  }
}

const sortableOf = (contract: EntityContract) => (contract.fields ?? []).filter((field) => field.sortable).map((field) => field.source);

describe('sorting every list on the server', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await createTestServer();
    token = (await signInAdmin(server)).accessToken!;
    const { companyId, adminUserId } = server.company;
    const three = [0, 1, 2];
    const names = ['alpha', 'Bravo', 'charlie'];
    const conns = await server.db
      .insert(connections)
      .values(
        three.map((i) => ({
          companyId,
          name: names[i],
          type: 'postgresql',
          isSource: i === 2,
          isDestination: i === 2,
          isActive: i === 2,
          lastTestedAt: at(i),
          createdAt: at(i),
        })),
      )
      .returning({ id: connections.id });
    await server.db.insert(dataTables).values(
      three.map((i) => ({
        companyId,
        connectionId: conns[0].id,
        endpoint: `public.t${i}`,
        name: names[i],
        isActive: i === 2,
        discoveredAt: at(i),
        createdAt: at(i),
        updatedAt: at(i),
      })),
    );
    const [pair] = await server.db
      .insert(sourceDestinations)
      .values({ companyId, name: 'Pair', sourceId: conns[0].id, destinationId: conns[1].id })
      .returning({ id: sourceDestinations.id });
    const flows = await server.db
      .insert(workflows)
      .values(three.map((i) => ({ companyId, name: names[i], pairId: pair.id, isActive: i === 2, createdAt: at(i), updatedAt: at(i) })))
      .returning({ id: workflows.id });
    const statuses = ['canceled', 'failed', 'succeeded'];
    const triggers = ['api_key', 'manual', 'schedule'];
    await server.db.insert(jobRuns).values(
      three.map((i) => ({
        companyId,
        workflowId: flows[0].id,
        status: statuses[i],
        trigger: triggers[i],
        attempt: i + 1,
        queuedAt: at(i),
        startedAt: at(i),
        endedAt: at(i + 1),
      })),
    );
    await server.db.insert(apiKeys).values(
      three.map((i) => ({
        companyId,
        name: names[i],
        prefix: `p${i}`,
        keyHash: `hash-${i}`,
        accessUserId: adminUserId,
        isActive: i === 2,
        expiresAt: at(i + 100),
        lastUsedAt: at(i),
        createdAt: at(i),
        updatedAt: at(i),
      })),
    );
    const models = ['company', 'role', 'user'];
    const operations = ['activate', 'create', 'update'];
    await server.db
      .insert(systemAudits)
      .values(three.map((i) => ({ companyId, model: models[i], operation: operations[i], createdAt: at(i) })));
    const events = ['logout', 'otp', 'signin'];
    const outcomes = ['blocked', 'failure', 'success'];
    await server.db
      .insert(accessEvents)
      .values(three.map((i) => ({ companyId, event: events[i], status: outcomes[i], email: `e${i}@acme.test`, createdAt: at(i) })));
  });
  afterAll(() => server.close());

  const lists: Array<{ contract: EntityContract; path: string; body?: Record<string, unknown> }> = [
    { contract: connectionsContract, path: '/connections/filter/0/50' },
    { contract: tablesContract, path: '/tables/filters/0/50' },
    { contract: workflowsContract, path: '/workflow/filter/0/50' },
    { contract: apikeysContract, path: '/apikey/filter/0/50' },
    { contract: jobRunsContract, path: '/jobRunTracker/filters?offset=0&limit=50', body: {} },
    { contract: auditsContract, path: '/system/audits/filter/0/50', body: PERIOD },
    { contract: accessEventsContract, path: '/access/events/filter/0/50', body: PERIOD },
  ];

  const sortedPage = async (path: string, body: Record<string, unknown>, field: string, order: string) => {
    const joiner = path.includes('?') ? '&' : '?';
    const res = await call(server, 'POST', `${path}${joiner}sort=${field}&order=${order}`, { token, body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.rows as Row[];
  };

  describe.each(lists)('$contract.name', ({ contract, path, body = {} }) => {
    it('declares sortable fields and a filter route that carries the sort', () => {
      expect(sortableOf(contract).length).toBeGreaterThan(1);
      const filter = contract.routes.filter!;
      expect(typeof filter === 'string' ? filter : filter.path).toMatch(/sort=\{field\}&order=\{order\}/);
    });

    it.each(['ASC', 'DESC'] as const)('orders every sortable field %s', async (order) => {
      for (const field of sortableOf(contract)) {
        const rows = await sortedPage(path, body, field, order);
        expect(rows.length, field).toBe(3);
        expectOrdered(rows, field, order);
      }
    });

    it('answers in its own order without a sort, and a field going up differs from it', async () => {
      const defaultSort = contract.routes.filter!.sort;
      const own = await call(server, 'POST', path, { token, body });
      expect(own.statusCode, own.body).toBe(200);
      const ownRows = own.json().data.rows as Row[];
      expectOrdered(ownRows, defaultSort.field, defaultSort.order);
      const other = sortableOf(contract).find((field) => field !== defaultSort.field)!;
      const up = await sortedPage(path, body, other, 'ASC');
      expect(up.map((row) => row.id)).not.toEqual(ownRows.map((row) => row.id));
    });

    it('refuses a field it cannot sort by with a 400 naming the sortable ones, and an unknown order', async () => {
      const joiner = path.includes('?') ? '&' : '?';
      const bad = await call(server, 'POST', `${path}${joiner}sort=password&order=ASC`, { token, body });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe(`sort: must be one of ${sortableOf(contract).join(', ')}`);
      const sideways = await call(server, 'POST', `${path}${joiner}sort=${sortableOf(contract)[0]}&order=sideways`, { token, body });
      expect(sideways.statusCode).toBe(400);
      expect(sideways.json().message).toBe('order: must be ASC or DESC');
    });
  });

  it('pages a sorted list without losing or repeating a row', async () => {
    const first = await call(server, 'POST', '/connections/filter/0/2?sort=name&order=ASC', { token, body: {} });
    const second = await call(server, 'POST', '/connections/filter/2/2?sort=name&order=ASC', { token, body: {} });
    const names = [...first.json().data.rows, ...second.json().data.rows].map((row: Row) => row.name);
    expect(names).toEqual(['alpha', 'Bravo', 'charlie']);
  });
});
