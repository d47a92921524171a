import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_TYPES } from '../../../common/connections';
import { ConnectorError, type Dialect } from '../../../server/connectors/types';
import { checkCompanySql, COMPANY_SQL_DIALECTS, companySqlDialectOf } from '../../../server/sql/company-sql';
import { DENIED_FUNCTIONS, type CheckedDialect, type DeniedFunction } from '../../../server/sql/denied-functions';
import { onMysql, onPostgres, randomName, skipMysql, skipPostgres } from '../connectors/db-helpers';

/**
 * The check every query a company writes passes before it runs (server/sql/company-sql.ts): what
 * it refuses, in which words, wherever in the query it hides; and that what it accepts is
 * re-printed into a query that returns the same rows on the real servers.
 */

async function refusal(dialect: Dialect, text: string): Promise<string> {
  const outcome = await checkCompanySql(dialect, text).then(
    (printed) => printed,
    (err: unknown) => err,
  );
  expect(outcome, `${dialect}: ${text} should be refused`).toBeInstanceOf(ConnectorError);
  expect((outcome as ConnectorError).kind).toBe('invalid');
  return (outcome as ConnectorError).message;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A name the entry refuses: itself, or for a prefix, a name that starts with it. */
const nameOf = (entry: DeniedFunction) => (entry.prefix ? `${entry.name}anything` : entry.name);
/** A call of the entry's function, with the arguments that make it refused. */
const callOf = (entry: DeniedFunction, name = nameOf(entry)) =>
  entry.argumentCount === 2 ? `${name}('a'::tsquery, 'select t, s from aliases')` : `${name}('x')`;

/** The same call in every place of a query a check could miss. */
const PLACES: Record<CheckedDialect, Record<string, (call: (name?: string) => string, entry: DeniedFunction) => string>> = {
  postgres: {
    'the select list': (call) => `select ${call()}`,
    'upper case': (call, entry) => `SELECT ${call(nameOf(entry).toUpperCase())} FROM t`,
    'a schema-qualified name': (call, entry) => `select pg_catalog.${call(nameOf(entry))}`,
    'a quoted schema-qualified upper-case name': (call, entry) => `select "pg_catalog"."${nameOf(entry).toUpperCase()}"${call('')}`,
    'a sub-select': (call) => `select * from (select ${call()} as v) s`,
    'a CTE': (call) => `with c as (select ${call()} as v) select * from c`,
    'a FROM function': (call) => `select * from t, ${call()} as f`,
    'a window clause': (call) => `select row_number() over (partition by a order by ${call()}) from t`,
    'an ORDER BY': (call) => `select a from t order by ${call()}`,
    'a WHERE sub-query': (call) => `select a from t where exists (select 1 from u where u.b = ${call()})`,
  },
  mysql: {
    'the select list': (call) => `select ${call()}`,
    'upper case': (call, entry) => `SELECT ${call(nameOf(entry).toUpperCase())} FROM t`,
    'a schema-qualified name': (call, entry) => `select mysql.${call(nameOf(entry))}`,
    'a backquoted name': (call, entry) => `select \`${nameOf(entry)}\`${call('')}`,
    'a sub-select': (call) => `select * from (select ${call()} as v) s`,
    'a CTE': (call) => `with c as (select ${call()} as v) select * from c`,
    'a WHERE sub-query': (call) => `select a from t where a in (select ${call()})`,
    'a window clause': (call) => `select row_number() over (partition by a order by ${call()}) from t`,
    'an ORDER BY': (call) => `select a from t order by ${call()}`,
  },
};

describe.each(['postgres', 'mysql'] as const)('the deny list on %s', (dialect) => {
  it.each(DENIED_FUNCTIONS[dialect].map((entry) => [nameOf(entry), entry] as const))(
    'refuses %s wherever it is called, saying why',
    async (_name, entry) => {
      for (const [place, write] of Object.entries(PLACES[dialect])) {
        const text = write((name = nameOf(entry)) => callOf(entry, name), entry);
        const message = await refusal(dialect, text);
        expect(message, `${place}: ${text}`).toMatch(
          new RegExp(`^${escaped(nameOf(entry))} is not allowed: ${escaped(entry.reason)}$`, 'i'),
        );
      }
    },
  );
});

describe('what the deny list leaves alone', () => {
  it('lets sleeping, ordinary functions, columns named like denied functions and ts_rewrite without a query text through', async () => {
    for (const text of [
      'select pg_sleep(0.01)',
      "select lower('A'), now(), coalesce(null, 1)",
      'select lo_total, pg_ls_count from t',
      "select ts_rewrite('a & b'::tsquery, 'a'::tsquery, 'c'::tsquery)",
      'select current_date, version()',
    ]) {
      await expect(checkCompanySql('postgres', text), text).resolves.toEqual(expect.any(String));
    }
    for (const text of ['select sleep(0.01)', "select lower('A'), now()", 'select load_file_count from t', 'select @seen from t']) {
      await expect(checkCompanySql('mysql', text), text).resolves.toEqual(expect.any(String));
    }
  });

  it('names prefixed functions as written', async () => {
    expect(await refusal('postgres', "select lo_import('/etc/passwd')")).toBe(
      'lo_import is not allowed: large objects read and write files of the database server and outlast the query',
    );
    expect(await refusal('postgres', "select * from pg_ls_dir('.')")).toBe(
      'pg_ls_dir is not allowed: it reads files of the database server',
    );
    expect(await refusal('postgres', "select pg_catalog.pg_read_file('/etc/passwd')")).toBe(
      'pg_read_file is not allowed: it reads files of the database server',
    );
    expect(await refusal('postgres', "select query_to_xml_and_xmlschema('select 1', true, true, '')")).toMatch(
      /^query_to_xml_and_xmlschema is not allowed: it runs SQL of its own/,
    );
    expect(await refusal('postgres', "select dblink_exec('host=x', 'drop table t')")).toBe(
      'dblink_exec is not allowed: it reaches other databases or servers',
    );
    expect(await refusal('mysql', "select LOAD_FILE('/etc/passwd')")).toBe(
      'LOAD_FILE is not allowed: it reads files of the database server',
    );
  });
});

describe('one query, that writes and locks nothing', () => {
  it('refuses more than one statement, and a text without one', async () => {
    expect(await refusal('postgres', 'select 1; select 2')).toBe('Only one statement may run here; this text holds 2');
    expect(await refusal('postgres', 'select 1; delete from t; select 3;')).toBe('Only one statement may run here; this text holds 3');
    expect(await refusal('mysql', 'select 1; select 2')).toBe('Only one statement may run here; this text holds 2');
    expect(await refusal('postgres', '-- nothing but a comment')).toBe('This text holds no query: write one SELECT (or WITH … SELECT)');
    await expect(checkCompanySql('postgres', 'select 1;')).resolves.toBe('SELECT 1');
    await expect(checkCompanySql('mysql', 'select 1;')).resolves.toBe('SELECT 1');
  });

  it('refuses every statement that is not a query, naming it', async () => {
    const cases: Array<[Dialect, string, string]> = [
      ['postgres', 'delete from t', 'DELETE'],
      ['postgres', 'insert into t values (1)', 'INSERT'],
      ['postgres', 'update t set a = 1', 'UPDATE'],
      ['postgres', 'merge into t using u on t.a = u.a when matched then delete', 'MERGE'],
      ['postgres', 'create table x (a int)', 'CREATE TABLE'],
      ['postgres', 'create table x as select 1', 'CREATE TABLE … AS'],
      ['postgres', 'drop table t', 'DROP'],
      ['postgres', 'truncate t', 'TRUNCATE'],
      ['postgres', "copy t to '/tmp/t.csv'", 'COPY'],
      ['postgres', "set application_name = 'x'", 'SET'],
      ['postgres', 'begin', 'a transaction command'],
      ['postgres', 'explain analyze select 1', 'EXPLAIN'],
      ['postgres', 'do $$ begin perform 1; end $$', 'DO'],
      ['mysql', 'delete from t', 'DELETE'],
      ['mysql', 'insert into t values (1)', 'INSERT'],
      ['mysql', 'update t set a = 1', 'UPDATE'],
      ['mysql', 'replace into t values (1)', 'REPLACE'],
      ['mysql', 'create table x (a int)', 'CREATE'],
      ['mysql', 'drop table t', 'DROP'],
      ['mysql', 'set @x = 1', 'SET'],
      ['mysql', 'show tables', 'SHOW'],
    ];
    for (const [dialect, text, words] of cases) {
      const message = await refusal(dialect, text);
      if (words) expect(message, text).toBe(`Only a query (SELECT or WITH … SELECT) may run here, not ${words}`);
    }
  });

  it('refuses a WITH query that changes data, wherever it is', async () => {
    expect(await refusal('postgres', 'with d as (delete from t returning *) select * from d')).toBe(
      'A WITH query here may not change data (DELETE in "d")',
    );
    expect(await refusal('postgres', 'with i as (insert into t values (1) returning *) select * from i')).toBe(
      'A WITH query here may not change data (INSERT in "i")',
    );
    expect(await refusal('postgres', 'with ok as (select 1), u as (update t set a = 2 returning a) select * from ok, u')).toBe(
      'A WITH query here may not change data (UPDATE in "u")',
    );
    expect(await refusal('postgres', 'select * from t where a in (with gone as (delete from t returning a) select a from gone)')).toBe(
      'A WITH query here may not change data (DELETE in "gone")',
    );
  });

  it('refuses SELECT … INTO and its MySQL forms', async () => {
    expect(await refusal('postgres', 'select * into copied from t')).toBe('SELECT … INTO is not allowed: a query here may not write');
    expect(await refusal('postgres', 'select 1 into temporary kept')).toBe('SELECT … INTO is not allowed: a query here may not write');
    expect(await refusal('mysql', "select * from t into outfile '/tmp/t.csv'")).toBe(
      'INTO OUTFILE is not allowed: a query here may not write files',
    );
    expect(await refusal('mysql', "select a into dumpfile '/tmp/t.bin' from t")).toBe(
      'INTO DUMPFILE is not allowed: a query here may not write files',
    );
    expect(await refusal('mysql', 'select a from t limit 1 into @kept')).toBe(
      'SELECT … INTO @variable is not allowed: a query here may not set variables',
    );
  });

  it('refuses every locking clause, in a sub-select too', async () => {
    for (const [clause, words] of [
      ['for update', 'FOR UPDATE'],
      ['for no key update', 'FOR NO KEY UPDATE'],
      ['for share', 'FOR SHARE'],
      ['for key share', 'FOR KEY SHARE'],
      ['for update of t skip locked', 'FOR UPDATE'],
    ]) {
      expect(await refusal('postgres', `select * from t ${clause}`)).toBe(`${words} is not allowed: a query here may not lock rows`);
      expect(await refusal('postgres', `select * from (select * from t ${clause}) s`)).toBe(
        `${words} is not allowed: a query here may not lock rows`,
      );
    }
    expect(await refusal('mysql', 'select * from t for update')).toBe('FOR UPDATE is not allowed: a query here may not lock rows');
    expect(await refusal('mysql', 'select * from t lock in share mode')).toBe(
      'LOCK IN SHARE MODE is not allowed: a query here may not lock rows',
    );
    expect(await refusal('mysql', 'select * from (select * from t for update) s')).toBe(
      'FOR UPDATE is not allowed: a query here may not lock rows',
    );
    // MySQL 8's FOR SHARE is beyond the parser: refused as unreadable all the same.
    expect(await refusal('mysql', 'select * from t for share')).toMatch(/^The query cannot be read: /);
  });

  it('refuses MySQL variable assignments and reads of server settings', async () => {
    expect(await refusal('mysql', 'select @x := 1')).toBe(
      '@x := … is not allowed: a query here may not set variables, which stay on the session',
    );
    expect(await refusal('mysql', 'select a, @n := @n + 1 as k from t')).toBe(
      '@n := … is not allowed: a query here may not set variables, which stay on the session',
    );
    expect(await refusal('mysql', 'select @@datadir')).toBe('@@datadir is not allowed: it reads settings of the database server');
    expect(await refusal('mysql', 'select * from t where a = @@global.secure_file_priv')).toBe(
      '@@global.secure_file_priv is not allowed: it reads settings of the database server',
    );
  });
});

describe('what runs is the re-printed query, never the text as written', () => {
  it('refuses the MariaDB wrapper escape, saying where it stopped reading', async () => {
    const escape = "select * from t) q0 union select load_file('/etc/passwd') from (select 1";
    expect(await refusal('mysql', escape)).toBe('The query cannot be read: unexpected ")" (line 1, position 16)');
    expect(await refusal('postgres', escape)).toBe('The query cannot be read: syntax error at or near ")" (line 1, position 16)');
    expect(await refusal('postgres', 'select a,\n  b\nfrom t\nwhere )')).toBe(
      'The query cannot be read: syntax error at or near ")" (line 4, position 7)',
    );
    expect(await refusal('mysql', 'select a,\n  b\nfrom t\nwhere )')).toBe('The query cannot be read: unexpected ")" (line 4, position 7)');
    expect(await refusal('postgres', 'select (1')).toBe('The query cannot be read: syntax error at end of input (line 1, position 10)');
  });

  it('drops MySQL executable comments, which the parser skips and the server would run', async () => {
    const printed = await checkCompanySql('mysql', "select a /*! , load_file('/etc/passwd') */ from t");
    expect(printed).toBe('SELECT `a` FROM `t`');
    const versioned = await checkCompanySql('mysql', "select 1 /*!50000 union select load_file('/etc/passwd') */ -- done");
    expect(versioned).toBe('SELECT 1');
    expect(await checkCompanySql('postgres', 'select a /* note */ from t -- the end')).toBe('SELECT a FROM t');
  });

  it('keeps parameters', async () => {
    expect(await checkCompanySql('postgres', 'select * from t where a = $1 and b in ($2, $3)')).toBe(
      'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)',
    );
    expect(await checkCompanySql('mysql', 'select * from t where a = ? and b > ?')).toBe('SELECT * FROM `t` WHERE `a` = ? AND `b` > ?');
  });

  it('writes backslashes so that a server reads them the same whatever its string settings', async () => {
    expect(await checkCompanySql('postgres', "select * from t where a ~ '^x\\d+$'")).toBe("SELECT * FROM t WHERE a ~ E'^x\\\\d+$'");
  });
});

describe('the dialect of each connection type', () => {
  it('reads SQL of database and file connections as PostgreSQL or MySQL, and leaves Databricks and the rest unchecked', () => {
    expect(Object.keys(COMPANY_SQL_DIALECTS).sort()).toEqual([...CONNECTION_TYPES].sort());
    expect(CONNECTION_TYPES.map((type) => [type, companySqlDialectOf(type) ?? null])).toEqual([
      ['postgresql', 'postgres'],
      ['mysql', 'mysql'],
      ['embedded', 'postgres'],
      ['files', 'postgres'],
      ['s3', 'postgres'],
      ['gcs', 'postgres'],
      ['azure_blob', 'postgres'],
      ['databricks', null],
      ['slack', null],
      ['bitbucket', null],
      ['git', null],
    ]);
    expect(companySqlDialectOf('toString')).toBeUndefined();
    expect(companySqlDialectOf(undefined)).toBeUndefined();
  });
});

/** Ordinary rule queries, each run as written and as re-printed on the real server: the rows must be the same. */
const ORDINARY: Record<CheckedDialect, (place: string) => Array<{ text: string; params?: unknown[] }>> = {
  postgres: (s) => [
    {
      text: `select c.name, count(*) as n, sum(o.amount) as total from ${s}.orders o join ${s}.customers c on c.id = o.customer_id group by c.name having count(*) > 1 order by c.name`,
    },
    { text: `select o.id, c.email from ${s}.orders o left join ${s}.customers c using (id) where c.email is null order by o.id` },
    {
      text: `select id, amount, rank() over (partition by customer_id order by amount desc) as r, sum(amount) over w as running from ${s}.orders window w as (order by id) order by id`,
    },
    { text: `select * from ${s}.customers where email !~ '^[^@ ]+@[^@ ]+\\.[a-z]+$' order by id` },
    {
      text: `select id, amount::int as whole, cast(placed_at as date) as day, '42'::numeric + 1 as n, extract(year from placed_at) as y from ${s}.orders order by id`,
    },
    { text: `select * from ${s}.orders where amount > $1 and status = $2 order by id`, params: [10, 'paid'] },
    { text: `values (1, 'a'), (2, 'b')` },
    { text: `select id from ${s}.orders where amount < 20 union select id from ${s}.orders where status = 'new' order by 1` },
    { text: `select "Mixed Case", "select" from ${s}."Odd Table" order by 1` },
    { text: `with big as (select * from ${s}.orders where amount > 50) select count(*) as n, max(amount) as top from big` },
    {
      text: `select * from ${s}.customers c where exists (select 1 from ${s}.orders o where o.customer_id = c.id and o.status = 'lost') order by id`,
    },
    { text: `select 'it''s' as a, E'back\\\\slash\\n' as b, $$dollar 'quoted'$$ as c, U&'\\00e9' as d` },
    {
      text: `select id, case when amount > 50 then 'big' else 'small' end as size, coalesce(status, 'none') as status from ${s}.orders where status in ('paid', 'new') or status is null order by id`,
    },
    { text: `select id from ${s}.orders where placed_at > timestamptz '2024-01-03 00:00:00+00' - interval '1 day' order by id` },
    {
      text: `select customer_id, string_agg(status, ',' order by id) filter (where status is not null) as statuses from ${s}.orders group by customer_id order by 1`,
    },
  ],
  mysql: (d) => [
    {
      text: `select c.\`name\`, count(*) as n, sum(o.amount) as total from ${d}.orders o join ${d}.customers c on c.id = o.customer_id group by c.\`name\` having count(*) > 1 order by c.\`name\``,
    },
    { text: `select o.id, c.email from ${d}.orders o left join ${d}.customers c on c.id = o.id where c.email is null order by o.id` },
    { text: `select id, amount, rank() over (partition by customer_id order by amount desc) as r from ${d}.orders order by id` },
    { text: `select * from ${d}.customers where email not regexp '^[^@ ]+@[^@ ]+\\\\.[a-z]+$' order by id` },
    { text: `select id, cast(amount as signed) as whole, cast(placed_at as date) as day from ${d}.orders order by id` },
    { text: `select * from ${d}.orders where amount > ? and status = ? order by id`, params: [10, 'paid'] },
    { text: `select id from ${d}.orders where amount < 20 union select id from ${d}.orders where status = 'new' order by 1` },
    { text: `select \`Mixed Case\`, \`select\` from ${d}.\`Odd Table\` order by 1` },
    { text: `with big as (select * from ${d}.orders where amount > 50) select count(*) as n, max(amount) as top from big` },
    {
      text: `select * from ${d}.customers c where exists (select 1 from ${d}.orders o where o.customer_id = c.id and o.status = 'lost') order by id`,
    },
    { text: `select 'it''s' as a, 'back\\\\slash' as b, "double" as c` },
    {
      text: `select id, case when amount > 50 then 'big' else 'small' end as size, coalesce(status, 'none') as st, if(amount > 10, 1, 0) as over_ten from ${d}.orders order by id`,
    },
    { text: `select id from ${d}.orders where placed_at > '2024-01-03 00:00:00' - interval 1 day order by id` },
    {
      text: `select customer_id, group_concat(status order by id separator ',') as statuses from ${d}.orders group by customer_id order by 1`,
    },
  ],
};

const FIXTURE_ROWS = `
  insert into CUSTOMERS values (1, 'ann', 'ann@example.com'), (2, 'bob', 'bob@example'), (3, 'cy', null), (4, 'dee', 'dee@example.org');
  insert into ORDERS values (1, 1, 10.5, 'paid', '2024-01-01 10:00:00'), (2, 1, 60, 'new', '2024-01-02 10:00:00'), (3, 2, 5, 'lost', '2024-01-03 10:00:00'),
    (4, 2, 75.25, null, '2024-01-04 10:00:00'), (5, 3, 15, 'paid', '2024-01-05 10:00:00'), (6, 9, 99, 'paid', '2024-01-06 10:00:00');
  insert into ODD values ('x', 'y'), ('a', 'b')`;

function fixture(qualify: (table: string) => string): string[] {
  return FIXTURE_ROWS.replace('CUSTOMERS', qualify('customers'))
    .replace('ORDERS', qualify('orders'))
    .replace('ODD', qualify('"Odd Table"'))
    .split(';')
    .map((statement) => statement.trim());
}

describe.skipIf(skipPostgres)('accepted queries on PostgreSQL', () => {
  const schema = randomName('company_sql');
  beforeAll(async () => {
    await onPostgres(async (client) => {
      await client.query(`create schema ${schema}`);
      await client.query(`create table ${schema}.customers (id int primary key, name text not null, email text)`);
      await client.query(
        `create table ${schema}.orders (id int primary key, customer_id int, amount numeric(10,2), status text, placed_at timestamptz)`,
      );
      await client.query(`create table ${schema}."Odd Table" ("Mixed Case" text, "select" text)`);
      for (const statement of fixture((table) => `${schema}.${table}`)) await client.query(statement);
    });
  });
  afterAll(async () => {
    await onPostgres((client) => client.query(`drop schema if exists ${schema} cascade`));
  });

  it('re-prints each into a query that returns the same rows', async () => {
    await onPostgres(async (client) => {
      for (const { text, params = [] } of ORDINARY.postgres(schema)) {
        const printed = await checkCompanySql('postgres', text);
        const written = await client.query({ text, values: params, rowMode: 'array' });
        const run = await client.query({ text: printed, values: params, rowMode: 'array' });
        expect(written.rows.length, text).toBeGreaterThan(0);
        expect(run.rows, `${text}\n→ ${printed}`).toEqual(written.rows);
        expect(
          run.fields.map((field) => field.name),
          printed,
        ).toEqual(written.fields.map((field) => field.name));
      }
    });
  });
});

describe.skipIf(skipMysql)('accepted queries on MariaDB', () => {
  const database = randomName('company_sql');
  beforeAll(async () => {
    await onMysql(async (connection) => {
      await connection.query(`create database ${database}`);
      await connection.query(`create table ${database}.customers (id int primary key, name varchar(20) not null, email varchar(50))`);
      await connection.query(
        `create table ${database}.orders (id int primary key, customer_id int, amount decimal(10,2), status varchar(10), placed_at datetime)`,
      );
      await connection.query(`create table ${database}.\`Odd Table\` (\`Mixed Case\` varchar(5), \`select\` varchar(5))`);
      for (const statement of fixture((table) => `${database}.${table.replace(/"/g, '`')}`)) await connection.query(statement);
    });
  });
  afterAll(async () => {
    await onMysql((connection) => connection.query(`drop database if exists ${database}`));
  });

  it('re-prints each into a query that returns the same rows', async () => {
    await onMysql(async (connection) => {
      for (const { text, params = [] } of ORDINARY.mysql(database)) {
        const printed = await checkCompanySql('mysql', text);
        const [written, writtenFields] = await connection.query({ sql: text, values: params, rowsAsArray: true });
        const [run, runFields] = await connection.query({ sql: printed, values: params, rowsAsArray: true });
        expect((written as unknown[]).length, text).toBeGreaterThan(0);
        expect(run, `${text}\n→ ${printed}`).toEqual(written);
        expect(
          (runFields ?? []).map((field) => field.name),
          printed,
        ).toEqual((writtenFields ?? []).map((field) => field.name));
      }
    });
  });
});
