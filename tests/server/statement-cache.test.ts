import { afterEach, describe, expect, it } from 'vitest';
import { StatementCachingClient } from '../../server/db/statement-cache';
import { inlined } from '../../server/http/lists';

/** Named statements on a real PostgreSQL (the suite's PostgreSQL run); PGlite has no such thing. */
const databaseUrl = process.env.DATABASE_URL;

describe.runIf(Boolean(databaseUrl))('statements kept per PostgreSQL connection', () => {
  let client: StatementCachingClient | undefined;
  afterEach(async () => {
    await client?.end();
    client = undefined;
  });

  const connect = async () => {
    client = new StatementCachingClient({ connectionString: databaseUrl });
    await client.connect();
    return client;
  };
  const kept = async (c: StatementCachingClient) =>
    (await c.query('select name, statement, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements'))
      .rows as Array<{
      name: string;
      statement: string;
      generic: number;
      custom: number;
    }>;

  it('names a parameterised statement by its text and plans it once it has seen the values vary', async () => {
    const c = await connect();
    const text = 'select n from generate_series(1, 100) n where n > $1 order by n limit 10';
    for (let i = 0; i < 8; i++) expect((await c.query(text, [i])).rows[0].n).toBe(i + 1);
    const [statement] = (await kept(c)).filter((s) => s.statement === text);
    expect(statement.name).toMatch(/^s_[\w-]{27}$/);
    expect(statement.generic + statement.custom).toBe(8);
    expect(statement.generic).toBeGreaterThan(0);
  });

  it('gives the same text the same name and leaves statements without values unnamed', async () => {
    const c = await connect();
    await c.query('select $1::int as a', [1]);
    await c.query('select $1::int as a', [2]);
    await c.query('select 1 as b');
    const statements = await kept(c);
    expect(statements.filter((s) => s.statement === 'select $1::int as a')).toHaveLength(1);
    expect(statements.some((s) => s.statement === 'select 1 as b')).toBe(false);
  });

  it('leaves text searches unnamed, so that each pattern is planned for itself', async () => {
    const c = await connect();
    const text = 'select n from generate_series(1, 100) n where n::text ilike $1';
    for (const pattern of ['%1%', '%42%']) await c.query(text, [pattern]);
    await c.query("select $1::text as plain where 'x' like $1", ['x']);
    const statements = await kept(c);
    expect(statements.some((s) => s.statement === text)).toBe(false);
    expect(statements.some((s) => s.statement.includes("'x' like $1"))).toBe(true);
  });

  it('keeps at most 200 per connection, then runs the rest unnamed', async () => {
    const c = await connect();
    for (let i = 0; i < 210; i++) expect((await c.query(`select $1::int + ${i} as v`, [1])).rows[0].v).toBe(i + 1);
    expect((await kept(c)).length).toBe(200);
  });
});

describe('page bounds written into the statement', () => {
  it('takes whole numbers of rows only', () => {
    expect(() => inlined(10)).not.toThrow();
    for (const bad of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])
      expect(() => inlined(bad), String(bad)).toThrow(/not a number of rows/);
  });
});
