import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QualityFunction } from '../../../common/schemas/quality';
import { closeEmbeddedDatabases, openEmbeddedConnector } from '../../../server/connectors/embedded';
import { ORDER_STATUSES, SAMPLE_SHOP_ROWS, seedSampleShop } from '../../../server/connectors/sample-data';
import { evaluateRules } from '../../../server/quality/evaluate';
import type { RuleToRun } from '../../../server/quality/rules';
import { type Place, SOURCE_KINDS } from './sources';
import { TEST_COMPANY_ID } from '../connectors/test-context';

/** The sample shop: the same every time, seeded once, and dirty where the rules look. */

const NOW = new Date('2026-03-02T12:00:00Z');
const TABLES = Object.keys(SAMPLE_SHOP_ROWS) as Array<keyof typeof SAMPLE_SHOP_ROWS>;

function ruleOf(functionName: QualityFunction, columnName: string | null, params: unknown = {}): RuleToRun {
  return { id: crypto.randomUUID(), name: functionName, functionName, columnName, params, severity: 'fail', tolerance: 0 };
}

describe.each(SOURCE_KINDS)('the sample shop on $label', (kind) => {
  let place: Place;

  beforeAll(async () => {
    if (kind.skip) return;
    place = await kind.open();
    expect(await seedSampleShop(place.source, { now: NOW, schema: place.schema })).toEqual({
      seeded: ['products', 'customers', 'orders', 'order_items'],
    });
  });

  afterAll(async () => {
    await place?.close();
  });

  const fingerprint = async () => {
    const counts = await Promise.all(TABLES.map((table) => place.count(table)));
    const [orders] = await place.source.query(`select sum(total_amount) as amount, max(id) as id from ${place.table('orders')}`, [], {
      timeoutMs: 10_000,
    });
    return { counts, amount: Number(orders?.amount), id: Number(orders?.id) };
  };

  it.skipIf(kind.skip)('creates the four tables with their rows', async () => {
    expect(await Promise.all(TABLES.map((table) => place.count(table)))).toEqual(TABLES.map((table) => SAMPLE_SHOP_ROWS[table]));
    const endpoints = (await place.source.endpoints()).map((endpoint) => endpoint.name);
    for (const table of TABLES) expect(endpoints).toContain(table);
    expect((await place.source.columns(place.endpoint('customers'))).map((column) => column.name)).toEqual([
      'id',
      'email',
      'full_name',
      'country',
      'signed_up_at',
      'last_seen_at',
    ]);
  });

  it.skipIf(kind.skip)('changes nothing when seeded again', async () => {
    const before = await fingerprint();
    expect(await seedSampleShop(place.source, { now: new Date(), schema: place.schema })).toEqual({ seeded: [] });
    expect(await fingerprint()).toEqual(before);
  });

  it.skipIf(kind.skip)('holds the faults the data-quality rules are there to find', async () => {
    const twoYearsBefore = new Date(NOW.getTime() - 2 * 365 * 24 * 3600_000).toISOString().slice(0, 10);
    const customers = await evaluateRules(place.source, {
      endpoint: place.endpoint('customers'),
      columns: [{ name: 'email', sensitivity: 'pii' }],
      rules: [
        ruleOf('not_null', 'email'),
        ruleOf('unique', 'email'),
        ruleOf('regex_match', 'email', { pattern: '^[^@ ]+@[^@ ]+[.][a-z]+$' }),
        ruleOf('value_between', 'last_seen_at', { min: twoYearsBefore }),
        ruleOf('not_null', 'full_name'),
        ruleOf('in_set', 'country', { values: ['DE', 'FR', 'GB', 'US', 'ES', 'IT', 'NL', 'SE', 'PL', 'JP', 'BR', 'CA'] }),
      ],
    });
    expect(customers.results.map((result) => [result.ruleName, result.columnName, result.status])).toEqual([
      ['not_null', 'email', 'failed'],
      ['unique', 'email', 'failed'],
      ['regex_match', 'email', 'failed'],
      ['value_between', 'last_seen_at', 'failed'],
      ['not_null', 'full_name', 'passed'],
      ['in_set', 'country', 'passed'],
    ]);
    for (const result of customers.results.slice(0, 4)) {
      expect(result.rowsFailed).toBeGreaterThan(10);
      expect(result.rowsFailed).toBeLessThan(200);
    }

    const orders = await evaluateRules(place.source, {
      endpoint: place.endpoint('orders'),
      columns: [],
      rules: [
        ruleOf('value_between', 'total_amount', { min: 0, max: 100_000 }),
        ruleOf('in_set', 'status', { values: [...ORDER_STATUSES] }),
        ruleOf('unique', 'id'),
        ruleOf('row_count_between', null, { min: 10_000, max: 10_000 }),
        ruleOf('custom_sql', null, {
          sql: `select o.* from ${place.table('orders')} o where not exists (select 1 from ${place.table('customers')} c where c.id = o.customer_id)`,
        }),
      ],
    });
    expect(orders.results.map((result) => [result.functionName, result.status])).toEqual([
      ['value_between', 'failed'],
      ['in_set', 'failed'],
      ['unique', 'passed'],
      ['row_count_between', 'passed'],
      ['custom_sql', 'failed'],
    ]);

    const products = await evaluateRules(place.source, {
      endpoint: place.endpoint('products'),
      columns: [],
      rules: [ruleOf('unique', 'sku')],
    });
    expect(products.results[0]?.status).toBe('failed');
  });
});

describe('the sample shop, seeded twice apart', () => {
  afterAll(async () => {
    await closeEmbeddedDatabases();
  });

  it('is the same shop every time for the same moment', async () => {
    const shops = ['shop_a', 'shop_b'].map((database) =>
      openEmbeddedConnector({ companyId: TEST_COMPANY_ID, type: 'embedded', settings: { database }, secrets: {} }, {}),
    );
    const contents = [];
    for (const shop of shops) {
      await seedSampleShop(shop, { now: NOW });
      contents.push(await shop.query('select id, email, last_seen_at from customers order by id', [], { timeoutMs: 10_000 }));
    }
    expect(contents[0]).toHaveLength(SAMPLE_SHOP_ROWS.customers);
    expect(contents[1]).toEqual(contents[0]);
  });
});
