import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QualityFunction } from '../../../common/schemas/quality';
import type { TableSource } from '../../../server/connectors/types';
import { evaluateRules } from '../../../server/quality/evaluate';
import type { ResultRow, RuleToRun } from '../../../server/quality/rules';
import { type Place, SOURCE_KINDS, watchedSource } from './sources';

/**
 * Incremental and sampled checks on each kind of source: a table's row rules read only the rows
 * past their last result's watermark, unique looks the new rows' values up in the whole table,
 * row_count_between and freshness stay whole-table, each result says which rows it covered, the
 * engine suggests the index that would make it cheaper, and a rule asked to run on a sample is
 * marked as an estimate.
 */

function ruleOf(functionName: QualityFunction, columnName: string | null, params: unknown = {}, extra: Partial<RuleToRun> = {}): RuleToRun {
  return { id: crypto.randomUUID(), name: functionName, functionName, columnName, params, severity: 'fail', tolerance: 0, ...extra };
}

const byKind = (results: ResultRow[], functionName: QualityFunction) => results.find((result) => result.functionName === functionName)!;
const idsOf = (result: ResultRow) => result.sample.map((row) => Number(row.id)).sort((a, b) => a - b);

/** Where each rule's next run starts, as the server keeps it: the watermark its last result covered up to. */
const nextStarts = (results: ResultRow[]) =>
  new Map(results.filter((result) => result.coveredUpTo !== null).map((result) => [result.ruleId, result.coveredUpTo!]));

describe.each(SOURCE_KINDS)('incremental and sampled checks on $label', (kind) => {
  let place: Place;
  const dictionary = [
    { name: 'id', sensitivity: 'internal' },
    { name: 'email', sensitivity: 'public' },
  ];

  const row = (id: number, email: string | null, amount: number) =>
    `(${id}, ${email === null ? 'null' : `'${email}'`}, ${amount}, ${place.ago(60 - id)})`;

  beforeAll(async () => {
    place = await kind.open();
  });

  afterAll(async () => {
    await place?.close();
  });

  it.skipIf(kind.skip)('reads only the rows past each rule’s watermark, and says so on every result', async () => {
    const table = place.table('orders');
    await place.exec(
      `create table ${table} (id integer primary key, email varchar(100), amount numeric(12,2), updated_at ${place.timestampType})`,
    );
    // Row 3 has no email: the first, whole-table run finds it; later runs read only newer rows.
    await place.exec(
      `insert into ${table} values ${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((id) => row(id, id === 3 ? null : `u${id}@example.com`, id)).join(', ')}`,
    );
    const rules = [
      ruleOf('not_null', 'email'),
      ruleOf('value_between', 'amount', { min: 0, max: 100 }),
      ruleOf('unique', 'email'),
      ruleOf('freshness', 'updated_at', { maxAgeMinutes: 24 * 60 }),
      ruleOf('row_count_between', null, { min: 1 }),
    ];
    const evaluate = (after: Map<string, string>, source: TableSource = place.source) =>
      evaluateRules(source, { endpoint: place.endpoint('orders'), rules, columns: dictionary, watermark: { column: 'id', after } });

    const first = await evaluate(new Map());
    expect(first.status).toBe('failed');
    expect(byKind(first.results, 'not_null')).toMatchObject({
      status: 'failed',
      rowsScanned: 10,
      rowsFailed: 1,
      coveredColumn: 'id',
      coveredAfter: null,
    });
    for (const result of first.results.filter((result) => ['not_null', 'value_between', 'unique'].includes(result.functionName)))
      expect(result.coveredUpTo).toBe('10');
    // Whole-table rules say nothing of a watermark: their next run reads the whole table again.
    expect(byKind(first.results, 'freshness')).toMatchObject({ status: 'passed', coveredColumn: null, coveredUpTo: null });
    expect(byKind(first.results, 'row_count_between')).toMatchObject({ status: 'passed', observed: '10', coveredUpTo: null });

    // Row 12 is out of bounds, row 13 repeats row 1's email.
    await place.exec(
      `insert into ${table} values ${row(11, 'u11@example.com', 11)}, ${row(12, 'u12@example.com', 500)}, ${row(13, 'u1@example.com', 13)}`,
    );
    const { source, statements } = watchedSource(place.source);
    const second = await evaluate(nextStarts(first.results), source);
    expect(second.status).toBe('failed');
    const notNull = byKind(second.results, 'not_null');
    // Row 3 is still without an email, but it is not a new row.
    expect(notNull).toMatchObject({
      status: 'passed',
      rowsScanned: 3,
      rowsFailed: 0,
      coveredColumn: 'id',
      coveredAfter: '10',
      coveredUpTo: '13',
    });
    expect(notNull.message).toBe('0 of 3 rows with id after 10: email is null');
    const between = byKind(second.results, 'value_between');
    expect(between).toMatchObject({ status: 'failed', rowsScanned: 3, rowsFailed: 1, coveredAfter: '10' });
    expect(idsOf(between)).toEqual([12]);
    const unique = byKind(second.results, 'unique');
    // The new row 13 repeats an old row's value: found against the whole table; the sample shows both rows.
    expect(unique).toMatchObject({ status: 'failed', rowsScanned: 3, rowsFailed: 1, coveredAfter: '10', coveredUpTo: '13' });
    expect(idsOf(unique)).toEqual([1, 13]);
    expect(byKind(second.results, 'freshness')).toMatchObject({ status: 'passed', coveredColumn: null, rowsScanned: null });
    // Counted no further than the rule's min needs.
    expect(byKind(second.results, 'row_count_between')).toMatchObject({ status: 'passed', observed: 'at least 1', coveredUpTo: null });
    expect(byKind(second.results, 'row_count_between').message).toBe(
      'the table holds at least 1 row (counted no further); expected at least 1',
    );
    // No statement of the run counts the whole table.
    const wholeCounts = statements.filter(
      (sql) => /count\(\*\)/i.test(sql) && !/information_schema/.test(sql) && !/ > /.test(sql) && !/limit 1\)/.test(sql),
    );
    expect(wholeCounts).toEqual([]);

    // Nothing new: every row rule reads no row and passes.
    const third = await evaluate(nextStarts(second.results));
    expect(byKind(third.results, 'not_null')).toMatchObject({ status: 'passed', rowsScanned: 0, coveredAfter: '13', coveredUpTo: '13' });
    expect(byKind(third.results, 'unique')).toMatchObject({ status: 'passed', rowsScanned: 0, rowsFailed: 0 });

    // A full check: every row again, and row 3 fails again.
    const full = await evaluate(new Map());
    expect(byKind(full.results, 'not_null')).toMatchObject({ status: 'failed', rowsScanned: 13, coveredAfter: null, coveredUpTo: '13' });
    expect(byKind(full.results, 'row_count_between').observed).toBe('13');
  });

  it.skipIf(kind.skip)(
    'checks unique on the watermark column among the new rows alone, where every row holding their values lies',
    async () => {
      const table = place.table('stamped');
      await place.exec(`create table ${table} (seq integer, email varchar(100))`);
      await place.exec(`insert into ${table} values (1, 'a@x.io'), (2, 'b@x.io'), (3, 'c@x.io')`);
      await place.exec(`insert into ${table} values (4, 'd@x.io'), (4, 'e@x.io'), (5, 'f@x.io')`);
      const unique = ruleOf('unique', 'seq');
      const outcome = await evaluateRules(place.source, {
        endpoint: place.endpoint('stamped'),
        rules: [unique],
        columns: dictionary,
        watermark: { column: 'seq', after: new Map([[unique.id, '3']]) },
      });
      expect(outcome.results[0]).toMatchObject({ status: 'failed', rowsScanned: 3, rowsFailed: 1, coveredAfter: '3', coveredUpTo: '5' });
      // One read of the new rows: no look-up into the rest of the table.
      expect(outcome.results[0]!.query).not.toMatch(/select count\(\*\) from .* o where/);
      expect(outcome.results[0]!.query.match(/ from /g)).toHaveLength(1);
    },
  );

  it.skipIf(kind.skip)('counts a table up to one more than its max, and fails it when the count reaches that', async () => {
    const table = place.table('counted');
    await place.exec(
      `create table ${table} (id integer primary key, email varchar(100), amount numeric(12,2), updated_at ${place.timestampType})`,
    );
    await place.exec(`insert into ${table} values ${[1, 2, 3, 4, 5].map((id) => row(id, `c${id}@example.com`, id)).join(', ')}`);
    const notNull = ruleOf('not_null', 'email');
    const evaluate = (rules: RuleToRun[], after: Map<string, string>) =>
      evaluateRules(place.source, { endpoint: place.endpoint('counted'), rules, columns: dictionary, watermark: { column: 'id', after } });
    const within = await evaluate([notNull, ruleOf('row_count_between', null, { min: 2, max: 9 })], new Map([[notNull.id, '3']]));
    expect(byKind(within.results, 'row_count_between')).toMatchObject({ status: 'passed', observed: '5' });
    const over = await evaluate([notNull, ruleOf('row_count_between', null, { max: 3 })], new Map([[notNull.id, '3']]));
    expect(byKind(over.results, 'row_count_between')).toMatchObject({ status: 'failed', observed: 'at least 4' });
    expect(byKind(over.results, 'row_count_between').message).toBe(
      'the table holds at least 4 rows (counted no further); expected at most 3',
    );
  });

  it.skipIf(kind.skip || kind.label === 'Embedded')(
    'suggests the index that lets the new rows’ values be looked up, and the index it suggests works',
    async () => {
      const table = place.table('advised');
      await place.exec(`create table ${table} (id integer primary key, email varchar(100), seq integer, amount numeric(12,2))`);
      await place.exec(`insert into ${table} values (1, 'a@x.io', 1, 1), (2, 'b@x.io', 2, 2), (3, 'a@x.io', 3, 3)`);
      const unique = ruleOf('unique', 'email');
      const notNull = ruleOf('not_null', 'email');
      const evaluate = (column: string) =>
        evaluateRules(place.source, {
          endpoint: place.endpoint('advised'),
          rules: [unique, notNull],
          columns: dictionary,
          watermark: {
            column,
            after: new Map([
              [unique.id, '2'],
              [notNull.id, '2'],
            ]),
          },
        });
      // seq has no index: finding the new rows reads the table.
      const bySeq = await evaluate('seq');
      expect(byKind(bySeq.results, 'not_null').advice).toMatch(
        /^Finding the rows with seq after the last check reads the whole table without an index on seq: create index /,
      );
      await place.exec(byKind(bySeq.results, 'not_null').advice!.replace(/^.*: (create index .*)$/, '$1'));
      // By id (the primary key), the rows are found; email's values are still looked up by reading the table.
      const byId = await evaluate('id');
      expect(byKind(byId.results, 'not_null').advice).toBeNull();
      const advice = byKind(byId.results, 'unique').advice!;
      expect(advice).toMatch(
        /^The new rows' values of email are looked up by reading the whole table; an index on email finds them directly: create index /,
      );
      expect(byKind(byId.results, 'unique')).toMatchObject({ status: 'failed', rowsScanned: 1, rowsFailed: 1 });
      await place.exec(advice.replace(/^.*: (create index .*)$/, '$1'));
      const indexed = await evaluate('id');
      expect(byKind(indexed.results, 'unique')).toMatchObject({ status: 'failed', rowsScanned: 1, rowsFailed: 1, advice: null });
      // Without the index, the new values were matched in one read of the table; with it, each is looked up.
      expect(byKind(byId.results, 'unique').query).toMatch(/group by/);
      expect(byKind(indexed.results, 'unique').query).toMatch(/ o where o\./);
      expect(byKind(indexed.results, 'not_null').advice).toBeNull();
    },
  );

  it.skipIf(kind.skip)('measures a rule asked to run on a sample as an estimate, with the sample’s size', async () => {
    const table = place.table('sampled');
    await place.exec(
      `create table ${table} (id integer primary key, email varchar(100), amount numeric(12,2), updated_at ${place.timestampType})`,
    );
    // 5,000 rows, every tenth without an email.
    for (let start = 1; start <= 5000; start += 1000) {
      const rows = Array.from({ length: 1000 }, (_, i) => start + i).map(
        (id) => `(${id}, ${id % 10 === 0 ? 'null' : `'s${id}@example.com'`}, 1, null)`,
      );
      await place.exec(`insert into ${table} values ${rows.join(', ')}`);
    }
    const sampled = ruleOf('not_null', 'email', {}, { samplePercent: 50, tolerance: 0.2 });
    const whole = ruleOf('regex_match', 'email', { pattern: '@' });
    const outcome = await evaluateRules(place.source, {
      endpoint: place.endpoint('sampled'),
      rules: [sampled, whole],
      columns: dictionary,
    });
    const estimate = outcome.results[0]!;
    expect(estimate).toMatchObject({ status: 'passed', samplePercent: 50 });
    expect(estimate.rowsScanned).toBeGreaterThan(0);
    expect(estimate.rowsScanned).toBeLessThan(5000);
    expect(estimate.failedShare).toBeGreaterThan(0.05);
    expect(estimate.failedShare).toBeLessThan(0.15);
    expect(estimate.message).toMatch(
      /^\d+ of \d+ rows in a sample \(50% of the table's pages; an estimate\): email is null; [\d.]+% fail, at most 20% allowed$/,
    );
    // The other rule reads the whole table, exactly.
    expect(outcome.results[1]).toMatchObject({ rowsScanned: 5000, samplePercent: null });
  });

  it.skipIf(kind.skip)('ends the run with a clear message when the watermark column cannot be read', async () => {
    const table = place.table('nowatermark');
    await place.exec(`create table ${table} (id integer primary key, email varchar(100))`);
    const outcome = await evaluateRules(place.source, {
      endpoint: place.endpoint('nowatermark'),
      rules: [ruleOf('not_null', 'email')],
      columns: dictionary,
      watermark: { column: 'loaded_at', after: new Map() },
    });
    expect(outcome.status).toBe('error');
    expect(outcome.error).toMatch(/^The watermark column loaded_at could not be read: /);
    expect(outcome.results).toEqual([]);
  });

  it.skipIf(kind.skip)('reads every row while the watermark column holds no value yet', async () => {
    const table = place.table('unstamped');
    await place.exec(`create table ${table} (id integer primary key, email varchar(100), loaded_at ${place.timestampType} null)`);
    await place.exec(`insert into ${table} (id, email) values (1, null), (2, 'b@x.io')`);
    const rule = ruleOf('not_null', 'email');
    const outcome = await evaluateRules(place.source, {
      endpoint: place.endpoint('unstamped'),
      rules: [rule],
      columns: dictionary,
      watermark: { column: 'loaded_at', after: new Map([[rule.id, '2026-01-01 00:00:00']]) },
    });
    expect(outcome.results[0]).toMatchObject({
      status: 'failed',
      rowsScanned: 2,
      coveredColumn: null,
      coveredAfter: null,
      coveredUpTo: null,
    });
  });
});
