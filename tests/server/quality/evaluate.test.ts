import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QualityFunction } from '../../../common/schemas/quality';
import type { TableSource } from '../../../server/connectors/types';
import { evaluateRules } from '../../../server/quality/evaluate';
import type { ResultRow, RuleToRun } from '../../../server/quality/rules';
import { type Place, SOURCE_KINDS } from './sources';

/**
 * The quality engine against live data on each kind of source: every rule kind passing and
 * failing on crafted rows, tolerance, severity, nulls, masking, the source refusing a rule, custom
 * SQL that tries to write, the source going away mid-run, and the one aggregate statement.
 */

function ruleOf(functionName: QualityFunction, columnName: string | null, params: unknown = {}, extra: Partial<RuleToRun> = {}): RuleToRun {
  return {
    id: crypto.randomUUID(),
    name: `${functionName} ${columnName ?? ''}`.trim(),
    functionName,
    columnName,
    params,
    severity: 'fail',
    tolerance: 0,
    ...extra,
  };
}

const idsOf = (result: ResultRow | undefined) => (result?.sample ?? []).map((row) => Number(row.id)).sort((a, b) => a - b);

/** Forwards to a source, counting the statements it is given and doing `afterFirst` once the first answer comes. */
function watched(source: TableSource, afterFirst?: () => Promise<void>) {
  const statements: string[] = [];
  let answered = 0;
  const wrapped: TableSource = {
    ...source,
    async query(sql, params, options) {
      statements.push(sql);
      const rows = await source.query(sql, params, options);
      answered += 1;
      if (answered === 1 && afterFirst) await afterFirst();
      return rows as never;
    },
  };
  return { source: wrapped, statements };
}

const EMAIL_PATTERN = '^[^@ ]+@[^@ ]+[.][a-z]+$';

describe.each(SOURCE_KINDS)('data-quality rules on $label', (kind) => {
  let place: Place;
  const dictionary = [
    { name: 'id', sensitivity: 'internal' },
    { name: 'email', sensitivity: 'pii' },
    { name: 'status', sensitivity: 'public' },
  ];
  const evaluate = (rules: RuleToRun[], table = 'people', source?: TableSource) =>
    evaluateRules(source ?? place.source, { endpoint: place.endpoint(table), rules, columns: dictionary });

  /** Ten people: row 3 has no email, row 4 repeats row 1's, row 5 is wrong everywhere, row 6 has an absurd amount and a long code. */
  async function createPeople(name: string) {
    const ts = place.timestampType;
    await place.exec(
      `create table ${place.table(name)} (id integer primary key, email varchar(100), amount numeric(12,2), status varchar(20), code varchar(20), seen_at ${ts} null, created_at ${ts} null)`,
    );
    const rows = [
      [1, `'ann@example.com'`, 10, `'paid'`, `'AB'`, 1, 3000],
      [2, `'bob@example.com'`, 20, `'paid'`, `'ABC'`, 2880, 3000],
      [3, 'null', 30, `'new'`, `'ABCD'`, 4320, 4000],
      [4, `'ann@example.com'`, 40, `'new'`, `'AB'`, 5760, 5000],
      [5, `'not-an-email'`, -5, `'lost'`, `'A'`, null, 6000],
      [6, `'cy@example.com'`, 1000000, `'paid'`, `'ABCDEFGHIJ'`, 7200, 7000],
      [7, `'dee@example.com'`, 50, 'null', `'AB'`, 8640, 8000],
      [8, `'eve@example.com'`, 60, `'paid'`, 'null', 10080, 9000],
      [9, `'fay@example.com'`, 70, `'new'`, `'AB'`, 11520, 9500],
      [10, `'gus@example.com'`, 80, `'paid'`, `'AB'`, 12960, 9900],
    ].map(
      ([id, email, amount, status, code, seenMinutesAgo, createdMinutesAgo]) =>
        `(${id}, ${email}, ${amount}, ${status}, ${code}, ${seenMinutesAgo === null ? 'null' : place.ago(Number(seenMinutesAgo))}, ${place.ago(Number(createdMinutesAgo))})`,
    );
    await place.exec(`insert into ${place.table(name)} values ${rows.join(', ')}`);
  }

  beforeAll(async () => {
    place = await kind.open();
    await createPeople('people');
    await place.exec(
      `create table ${place.table('blanks')} (id integer primary key, note varchar(50), score numeric(10,2), touched_at ${place.timestampType} null)`,
    );
    await place.exec(`insert into ${place.table('blanks')} (id) values (1), (2), (3)`);
  });

  afterAll(async () => {
    await place?.close();
  });

  it.skipIf(kind.skip)('passes every kind of rule on data that meets it', async () => {
    const rules = [
      ruleOf('not_null', 'id'),
      ruleOf('unique', 'id'),
      ruleOf('value_between', 'amount', { min: -10, max: 2000000 }),
      ruleOf('regex_match', 'code', { pattern: '^[A-Z]+$' }),
      ruleOf('in_set', 'status', { values: ['paid', 'new', 'lost'] }),
      ruleOf('length_between', 'code', { min: 1, max: 10 }),
      ruleOf('freshness', 'seen_at', { maxAgeMinutes: 60 }),
      ruleOf('row_count_between', null, { min: 5, max: 20 }),
      ruleOf('custom_sql', null, { sql: `select * from ${place.table('people')} where amount > 5000000` }),
    ];
    const outcome = await evaluate(rules);
    expect(outcome.status).toBe('passed');
    expect(outcome.results.map((result) => [result.functionName, result.status])).toEqual(
      rules.map((rule) => [rule.functionName, 'passed']),
    );
    for (const result of outcome.results) {
      expect(result.rowsScanned).toBe(10);
      expect(result.sample).toEqual([]);
      expect(result.startedAt.getTime()).toBeLessThanOrEqual(result.endedAt.getTime());
    }
    const rowRules = outcome.results.filter((result) => !['freshness', 'row_count_between'].includes(result.functionName));
    expect(rowRules.map((result) => [result.rowsFailed, result.failedShare, result.observed])).toEqual(rowRules.map(() => [0, 0, '0']));
    expect(outcome.results.find((result) => result.functionName === 'row_count_between')?.observed).toBe('10');
    expect(outcome.results.find((result) => result.functionName === 'freshness')?.message).toMatch(
      /is \d+ s old; at most 60 minutes old allowed$/,
    );
  });

  it.skipIf(kind.skip)('fails every kind of rule on data that breaks it, with the failing rows as a sample', async () => {
    const rules = [
      ruleOf('not_null', 'email'),
      ruleOf('unique', 'email'),
      ruleOf('value_between', 'amount', { min: 0, max: 1000 }),
      ruleOf('regex_match', 'email', { pattern: EMAIL_PATTERN }),
      ruleOf('in_set', 'status', { values: ['paid', 'new'] }),
      ruleOf('length_between', 'code', { min: 2, max: 4 }),
      ruleOf('freshness', 'created_at', { maxAgeMinutes: 60 }),
      ruleOf('row_count_between', null, { min: 11 }),
      ruleOf('custom_sql', null, { sql: `select * from ${place.table('people')} where amount < 0` }),
    ];
    const outcome = await evaluate(rules);
    expect(outcome.status).toBe('failed');
    const [notNull, unique, between, pattern, inSet, length, freshness, rowCount, custom] = outcome.results;
    expect(outcome.results.every((result) => result.status === 'failed')).toBe(true);

    expect(notNull).toMatchObject({
      rowsScanned: 10,
      rowsFailed: 1,
      failedShare: 0.1,
      observed: '1',
      message: '1 of 10 rows: email is null',
    });
    expect(idsOf(notNull)).toEqual([3]);
    expect(unique).toMatchObject({ rowsFailed: 1, message: '1 of 10 rows: email repeats the value of an earlier row' });
    expect(idsOf(unique)).toEqual([1, 4]);
    expect(between).toMatchObject({ rowsFailed: 2, failedShare: 0.2, message: '2 of 10 rows: amount is below 0 or above 1000' });
    expect(idsOf(between)).toEqual([5, 6]);
    expect(pattern).toMatchObject({ rowsFailed: 1, message: `1 of 10 rows: email does not match ${EMAIL_PATTERN}` });
    expect(idsOf(pattern)).toEqual([5]);
    expect(inSet).toMatchObject({ rowsFailed: 1, message: '1 of 10 rows: status is not one of paid, new' });
    expect(idsOf(inSet)).toEqual([5]);
    expect(length).toMatchObject({ rowsFailed: 2, message: '2 of 10 rows: the length of code is below 2 or above 4' });
    expect(idsOf(length)).toEqual([5, 6]);
    expect(freshness).toMatchObject({ rowsScanned: 10, rowsFailed: null, failedShare: null, sample: [] });
    expect(freshness?.observed).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(freshness?.message).toMatch(/^the newest created_at \(.+\) is 2 days old; at most 60 minutes old allowed$/);
    expect(rowCount).toMatchObject({
      observed: '10',
      rowsScanned: 10,
      rowsFailed: null,
      message: 'the table holds 10 rows; expected at least 11',
    });
    expect(custom).toMatchObject({ rowsFailed: 1, observed: '1', message: 'the query returns 1 row; the table holds 10' });
    expect(idsOf(custom)).toEqual([5]);

    // The column rules and the row count were measured by one statement, shown with its values written in; the
    // distinct count by one of its own, run beside it.
    const aggregate = notNull!.query;
    expect(aggregate).toMatch(/^select count\(\*\) as rows_scanned, /);
    for (const result of [between, pattern, inSet, length, freshness, rowCount]) expect(result?.query).toBe(aggregate);
    expect(aggregate).not.toContain('distinct');
    const quotedEmail = place.source.quote('email');
    expect(unique?.query).toBe(
      `select count(${quotedEmail}) - count(distinct ${quotedEmail}) as r1 from ${place.source.tableName(place.endpoint('people'))}`,
    );
    expect(aggregate).toContain(`'${EMAIL_PATTERN}'`);
    // The custom query runs once, re-printed from its parse tree, counting its rows beside the sample it reads.
    expect(custom?.query).toMatch(
      /^select q\.\*, count\(\*\) over \(\) as \w+ from \(\nSELECT \* FROM .*people.* WHERE .*amount.* < 0\n\) q limit 20$/,
    );
  });

  it.skipIf(kind.skip)('lets a rule pass while the failing share is within its tolerance', async () => {
    const within = ruleOf('value_between', 'amount', { min: 0, max: 1000 }, { tolerance: 0.2 });
    const beyond = ruleOf('value_between', 'amount', { min: 0, max: 1000 }, { tolerance: 0.1 });
    const outcome = await evaluate([within, beyond]);
    expect(outcome.results.map((result) => result.status)).toEqual(['passed', 'failed']);
    expect(outcome.results[0]?.message).toBe('2 of 10 rows: amount is below 0 or above 1000; 20% fail, at most 20% allowed');
    expect(outcome.results[0]?.sample).toEqual([]);
    expect(idsOf(outcome.results[1])).toEqual([5, 6]);
  });

  it.skipIf(kind.skip)('warns for a failing warn rule; only warn failures make the run warned', async () => {
    const warned = await evaluate([ruleOf('not_null', 'email', {}, { severity: 'warn' }), ruleOf('not_null', 'id')]);
    expect(warned.results.map((result) => result.status)).toEqual(['warned', 'passed']);
    expect(warned.status).toBe('warned');
    const failed = await evaluate([ruleOf('not_null', 'email', {}, { severity: 'warn' }), ruleOf('unique', 'email')]);
    expect(failed.results.map((result) => result.status)).toEqual(['warned', 'failed']);
    expect(failed.status).toBe('failed');
  });

  it.skipIf(kind.skip)('fails nulls only for not_null', async () => {
    const outcome = await evaluate(
      [
        ruleOf('unique', 'note'),
        ruleOf('regex_match', 'note', { pattern: '^x$' }),
        ruleOf('in_set', 'note', { values: ['x'] }),
        ruleOf('length_between', 'note', { min: 5 }),
        ruleOf('value_between', 'score', { min: 1 }),
        ruleOf('not_null', 'note'),
        ruleOf('freshness', 'touched_at', { maxAgeMinutes: 60 }),
      ],
      'blanks',
    );
    expect(outcome.results.map((result) => [result.functionName, result.status, result.rowsFailed])).toEqual([
      ['unique', 'passed', 0],
      ['regex_match', 'passed', 0],
      ['in_set', 'passed', 0],
      ['length_between', 'passed', 0],
      ['value_between', 'passed', 0],
      ['not_null', 'failed', 3],
      ['freshness', 'failed', null],
    ]);
    expect(outcome.results[6]?.message).toBe('touched_at holds no value');
  });

  it.skipIf(kind.skip)('masks pii columns in samples, keeping the first character; a null stays null', async () => {
    const outcome = await evaluate([ruleOf('value_between', 'amount', { min: 0, max: 1000 }), ruleOf('not_null', 'email')]);
    const [between, notNull] = outcome.results;
    const byId = new Map(between!.sample.map((row) => [Number(row.id), row]));
    expect(byId.get(5)).toMatchObject({ email: 'n***', status: 'lost', code: 'A' });
    expect(byId.get(6)).toMatchObject({ email: 'c***', status: 'paid' });
    expect(notNull!.sample[0]).toMatchObject({ email: null, status: 'new' });
    expect(JSON.stringify(outcome)).not.toContain('not-an-email');
  });

  it.skipIf(kind.skip)(
    'reports a pattern the source rejects as that rule’s error, in the source’s words; the others still count',
    async () => {
      const outcome = await evaluate([
        ruleOf('regex_match', 'email', { pattern: '[[:nope:]]' }),
        ruleOf('not_null', 'email'),
        ruleOf('row_count_between', null, { min: 1 }),
      ]);
      const [rejected, notNull, rowCount] = outcome.results;
      expect(rejected?.status).toBe('error');
      expect(rejected?.message).toBe(
        place.source.dialect === 'postgres'
          ? 'invalid regular expression: invalid character class'
          : "Regex error 'unknown POSIX class name at offset 3'",
      );
      expect(rejected?.query).toContain("'[[:nope:]]'");
      expect(notNull).toMatchObject({ status: 'failed', rowsFailed: 1, rowsScanned: 10 });
      expect(idsOf(notNull)).toEqual([3]);
      expect(rowCount).toMatchObject({ status: 'passed', observed: '10' });
      // A fail rule that could not be measured fails the run; the run itself was measured.
      expect(outcome.status).toBe('failed');
    },
  );

  it.skipIf(kind.skip)('reports a rule stored with params it cannot take, and measures the others', async () => {
    const outcome = await evaluate([ruleOf('value_between', 'amount', { min: 5, max: 1 }), ruleOf('not_null', 'id')]);
    expect(outcome.results.map((result) => [result.status, result.message])).toEqual([
      ['error', 'params.min: must not be above max'],
      ['passed', '0 of 10 rows: id is null'],
    ]);
  });

  it.skipIf(kind.skip)('runs custom SQL read-only: a query that writes is refused in the source’s words and nothing changes', async () => {
    await createPeople('kept');
    const outcome = await evaluate(
      [ruleOf('custom_sql', null, { sql: await place.purgingQuery('kept') }), ruleOf('not_null', 'id')],
      'kept',
    );
    const [custom, notNull] = outcome.results;
    expect(custom?.status).toBe('error');
    expect(custom?.message).toBe(
      place.source.dialect === 'postgres'
        ? 'cannot execute DELETE in a read-only transaction'
        : 'Cannot execute statement in a READ ONLY transaction',
    );
    expect(notNull?.status).toBe('passed');
    expect(await place.count('kept')).toBe(10);
    if (place.source.dialect === 'postgres') {
      const cte = await evaluate(
        [ruleOf('custom_sql', null, { sql: `with gone as (delete from ${place.table('kept')} returning *) select * from gone` })],
        'kept',
      );
      expect(cte.results[0]?.status).toBe('error');
      expect(await place.count('kept')).toBe(10);
    }
  });

  it.skipIf(kind.skip)('ends the run as an error, with no results, when the table is dropped mid-run', async () => {
    await createPeople('doomed');
    const { source, statements } = watched(place.source, () => place.exec(`drop table ${place.table('doomed')}`));
    const outcome = await evaluate([ruleOf('not_null', 'email'), ruleOf('unique', 'id')], 'doomed', source);
    // The catalogue finds the key's index (which proves unique); the table goes; the aggregate finds it gone.
    expect(statements.length).toBe(2);
    expect(outcome.status).toBe('error');
    expect(outcome.results).toEqual([]);
    expect(outcome.error).toMatch(
      place.source.dialect === 'postgres' ? /^relation ".*doomed" does not exist$/ : /^Table '.*doomed' doesn't exist$/,
    );
  });

  // The embedded database lives in this process: it has no server to lose.
  if (kind.label !== 'embedded') {
    it.skipIf(kind.skip)('ends the run as an error, with no results, when the server stops answering mid-run', async () => {
      const relayed = await place.throughRelay!();
      const { source, statements } = watched(relayed.source, relayed.cut);
      try {
        const outcome = await evaluate(
          [ruleOf('not_null', 'email'), ruleOf('custom_sql', null, { sql: `select * from ${place.table('people')} where amount < 0` })],
          'people',
          source,
        );
        expect(statements.length).toBe(2);
        expect(outcome.status).toBe('error');
        expect(outcome.results).toEqual([]);
        // The pooled connection dropped, or a new one refused: the driver's words either way.
        expect(outcome.error).toMatch(
          /^(Connection terminated unexpectedly|Connection lost: The server closed the connection\.|(PostgreSQL|MySQL) could not reach the database at .+)$/,
        );
        const fromStart = await evaluate([ruleOf('not_null', 'id')], 'people', relayed.source);
        expect(fromStart).toMatchObject({ status: 'error', results: [] });
        expect(fromStart.error).toMatch(/could not reach the database at /);
      } finally {
        await relayed.source.close();
      }
    });
  }

  const isCatalogue = (sql: string) => /pg_index|information_schema\.statistics/.test(sql);

  it.skipIf(kind.skip)('measures eight column rules that pass with one aggregate and one distinct count, and nothing else', async () => {
    const rules = [
      ruleOf('not_null', 'id'),
      ruleOf('unique', 'email'),
      ruleOf('value_between', 'amount', { min: -10, max: 2000000 }),
      ruleOf('regex_match', 'code', { pattern: '^[A-Z]+$' }),
      ruleOf('in_set', 'status', { values: ['paid', 'new', 'lost'] }),
      ruleOf('length_between', 'code', { min: 1, max: 10 }),
      ruleOf('freshness', 'seen_at', { maxAgeMinutes: 60 }),
      ruleOf('not_null', 'created_at'),
    ];
    await createPeople('unrepeated');
    await place.exec(`delete from ${place.table('unrepeated')} where id = 4`);
    const { source, statements } = watched(place.source);
    const outcome = await evaluate(rules, 'unrepeated', source);
    expect(outcome.status).toBe('passed');
    // The catalogue's indexes of the distinct count's column, then the aggregate and the distinct count.
    expect(statements).toHaveLength(3);
    expect(isCatalogue(statements[0]!)).toBe(true);
    expect(statements[1]).toMatch(/^select count\(\*\) as rows_scanned, .* from /);
    expect(statements[1]).not.toContain('distinct');
    expect(statements[2]).toMatch(/^select count\(.+\) - count\(distinct .+\) as r1 from /);
    const withRowCount = watched(place.source);
    await evaluate([...rules, ruleOf('row_count_between', null, { min: 1 })], 'unrepeated', withRowCount.source);
    expect(withRowCount.statements).toHaveLength(3);
    // A distinct count alone has nothing to run beside: the row count joins it.
    const uniqueOnly = watched(place.source);
    const alone = await evaluate(
      [ruleOf('unique', 'email'), ruleOf('row_count_between', null, { min: 1 })],
      'unrepeated',
      uniqueOnly.source,
    );
    expect(uniqueOnly.statements.slice(1)).toEqual([
      expect.stringMatching(/^select count\(\*\) as rows_scanned, count\(.+\) - count\(distinct .+\) as r0 from /),
    ]);
    expect(alone.results.map((result) => result.status)).toEqual(['passed', 'passed']);
  });

  it.skipIf(kind.skip)('measures the distinct counts on their own connections, at the same time as the aggregate', async () => {
    // Each statement waits until all three were asked for: measured one after another, the run would never end.
    let asked = 0;
    let allAsked!: () => void;
    const together = new Promise<void>((resolve) => (allAsked = resolve));
    const gated: TableSource = {
      ...place.source,
      async query(sql, params, options) {
        if (isCatalogue(sql)) return place.source.query(sql, params, options) as never;
        asked += 1;
        if (asked === 3) allAsked();
        await Promise.race([
          together,
          new Promise((_, reject) => setTimeout(() => reject(new Error('measured one after another')), 5_000)),
        ]);
        return place.source.query(sql, params, options) as never;
      },
    };
    const outcome = await evaluate([ruleOf('unique', 'code'), ruleOf('not_null', 'id'), ruleOf('unique', 'email')], 'people', gated);
    expect(outcome.status).not.toBe('error');
    expect(outcome.results.map((result) => result.functionName)).toEqual(['unique', 'not_null', 'unique']);
    expect(outcome.results[2]).toMatchObject({ status: 'failed', rowsScanned: 10, rowsFailed: 1 });
  });

  it.skipIf(kind.skip)('proves unique by a unique index without reading the table, and counts repeats through a plain index', async () => {
    await createPeople('indexed');
    await place.exec(`create index indexed_email_idx on ${place.table('indexed')} (email)`);
    const { source, statements } = watched(place.source);
    const outcome = await evaluate([ruleOf('unique', 'id'), ruleOf('unique', 'email')], 'indexed', source);
    const [byKey, byIndex] = outcome.results;
    expect(byKey).toMatchObject({ status: 'passed', rowsFailed: 0, rowsScanned: 10 });
    expect(byKey?.message).toMatch(
      /^0 of 10 rows: id repeats the value of an earlier row \(the unique index \S+ allows none; no row was read for it\)$/,
    );
    expect(isCatalogue(byKey!.query)).toBe(true);
    // The plain index on email: repeated values counted group by group, the same count a distinct count gives.
    expect(byIndex).toMatchObject({ status: 'failed', rowsFailed: 1, rowsScanned: 10 });
    expect(byIndex?.query).toMatch(/group by .*email.* having count\(\*\) > 1/);
    expect(idsOf(byIndex)).toEqual([1, 4]);
    // No statement read the id column's values.
    expect(statements.filter((sql) => !isCatalogue(sql)).some((sql) => sql.includes('distinct'))).toBe(false);
  });
});
