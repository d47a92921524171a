import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableSource } from '../../../server/connectors/types';
import { evaluateRules } from '../../../server/quality/evaluate';
import type { ResultRow, RuleToRun } from '../../../server/quality/rules';
import { type Place, SOURCE_KINDS, watchedSource } from './sources';

/**
 * Custom SQL rules on each kind of source: a query the company SQL check refuses never reaches the
 * source and is that rule's error, in words; an accepted query runs once, re-printed, and that one
 * statement gives both the count of failing rows and the sample.
 */

const customRule = (sql: string, extra: Partial<RuleToRun> = {}): RuleToRun => ({
  id: crypto.randomUUID(),
  name: 'Custom',
  functionName: 'custom_sql',
  columnName: null,
  params: { sql },
  severity: 'fail',
  tolerance: 0,
  ...extra,
});

const notNullId: RuleToRun = {
  id: crypto.randomUUID(),
  name: 'Ids given',
  functionName: 'not_null',
  columnName: 'id',
  params: {},
  severity: 'fail',
  tolerance: 0,
};

const ids = (result: ResultRow | undefined) => (result?.sample ?? []).map((row) => Number(row.id));

describe.each(SOURCE_KINDS)('custom SQL rules on $label', (kind) => {
  let place: Place;
  const dictionary = [
    { name: 'id', sensitivity: 'internal' },
    { name: 'email', sensitivity: 'pii' },
  ];
  const evaluate = (rules: RuleToRun[], source: TableSource = place.source) =>
    evaluateRules(source, { endpoint: place.endpoint('people'), rules, columns: dictionary });

  beforeAll(async () => {
    place = await kind.open();
    await place.exec(`create table ${place.table('people')} (id integer primary key, email varchar(100), amount integer)`);
    await place.exec(
      `insert into ${place.table('people')} values ${Array.from({ length: 10 }, (_, index) => `(${index + 1}, 'person${index + 1}@example.com', ${index === 4 ? -5 : (index + 1) * 10})`).join(', ')}`,
    );
  });
  afterAll(async () => {
    await place?.close();
  });

  it.skipIf(kind.skip)(
    'refuses a query that may not run before it reaches the source: that rule’s error, in words, and the source as it was',
    async () => {
      const table = place.table('people');
      const refused: Array<[string, string | RegExp]> =
        place.source.dialect === 'postgres'
          ? [
              [
                `select pg_read_file('/etc/passwd') as secret from ${table}`,
                'pg_read_file is not allowed: it reads files of the database server',
              ],
              [
                `with gone as (delete from ${table} returning *) select * from gone`,
                'A WITH query here may not change data (DELETE in "gone")',
              ],
              [
                `select * from ${table} where pg_catalog.pg_advisory_lock(1) is not null`,
                'pg_advisory_lock is not allowed: it takes or frees locks that outlast the query',
              ],
              [`select * from ${table} for update`, 'FOR UPDATE is not allowed: a query here may not lock rows'],
            ]
          : [
              [
                `select LOAD_FILE('/etc/passwd') as secret from ${table}`,
                'LOAD_FILE is not allowed: it reads files of the database server',
              ],
              [
                `select * from ${table}) q0 union select load_file('/etc/passwd') from (select 1`,
                /^The query cannot be read: unexpected "\)" \(line 1, position \d+\)$/,
              ],
              [
                `select get_lock('held', 0) as locked from ${table}`,
                'get_lock is not allowed: it takes or frees locks that outlast the query',
              ],
              [`select @@datadir as dir`, '@@datadir is not allowed: it reads settings of the database server'],
            ];
      for (const [sql, message] of refused) {
        const { source, statements } = watchedSource(place.source);
        const outcome = await evaluate([customRule(sql), notNullId], source);
        const [custom, other] = outcome.results;
        expect(custom, sql).toMatchObject({ status: 'error', rowsFailed: null, sample: [], query: sql });
        expect(custom?.message, sql).toMatch(message);
        expect(other?.status, sql).toBe('passed');
        // Only the table's own measure reached the source.
        expect(statements, sql).toHaveLength(1);
        expect(statements[0]).toMatch(/^select count\(\*\) as rows_scanned/);
      }
      expect(await place.count('people')).toBe(10);
    },
  );

  it.skipIf(kind.skip)('runs the query once, re-printed: one statement counts every failing row and reads the sample', async () => {
    const table = place.table('people');
    const { source, statements } = watchedSource(place.source);
    const outcome = await evaluate([customRule(`select id, email from ${table} where amount < 0 or id > 8 order by id`)], source);
    const [custom] = outcome.results;
    expect(custom).toMatchObject({
      status: 'failed',
      rowsFailed: 3,
      observed: '3',
      rowsScanned: 10,
      failedShare: 0.3,
      message: 'the query returns 3 rows; the table holds 10',
    });
    expect(custom?.sample).toEqual([
      { id: 5, email: 'p***' },
      { id: 9, email: 'p***' },
      { id: 10, email: 'p***' },
    ]);
    const customStatements = statements.filter((statement) => /amount/.test(statement));
    expect(customStatements).toHaveLength(1);
    expect(statements).toHaveLength(2);
    expect(custom?.query).toBe(customStatements[0]);
    expect(custom?.query).toMatch(/^select q\.\*, count\(\*\) over \(\) as \w+ from \(\nSELECT .*\n\) q limit 20$/);
  });

  it.skipIf(kind.skip)(
    'counts beyond the sample, and keeps no sample for a query that returns nothing or passes within its tolerance',
    async () => {
      const table = place.table('people');
      const [many] = (await evaluate([customRule(`select a.id, b.id as other_id from ${table} a cross join ${table} b`)])).results;
      expect(many).toMatchObject({
        status: 'failed',
        rowsFailed: 100,
        failedShare: 1,
        message: 'the query returns 100 rows; the table holds 10',
      });
      expect(many?.sample).toHaveLength(20);
      expect(Object.keys(many!.sample[0]!).sort()).toEqual(['id', 'other_id']);

      const [none] = (await evaluate([customRule(`select * from ${table} where amount > 1000`)])).results;
      expect(none).toMatchObject({
        status: 'passed',
        rowsFailed: 0,
        observed: '0',
        sample: [],
        message: 'the query returns 0 rows; the table holds 10',
      });

      const [tolerated] = (await evaluate([customRule(`select * from ${table} where amount < 0`, { tolerance: 0.1, severity: 'warn' })]))
        .results;
      expect(tolerated).toMatchObject({ status: 'passed', rowsFailed: 1, sample: [] });
      const [warned] = (await evaluate([customRule(`select * from ${table} where amount < 0`, { severity: 'warn' })])).results;
      expect(warned).toMatchObject({ status: 'warned', rowsFailed: 1 });
      expect(ids(warned)).toEqual([5]);
    },
  );
});
