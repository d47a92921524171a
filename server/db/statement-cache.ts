import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * PostgreSQL connections that keep the statements they run, so that a query the server runs
 * again and again (a list page, a session check) is parsed and planned once per connection
 * rather than on every call: planning a list page costs more than running it.
 *
 * Every statement with parameters is sent as a named statement whose name is a digest of its
 * text: the same text always has the same name, two texts never share one, and the values stay
 * parameters. A connection keeps at most MAX_PER_CONNECTION of them (beyond that statements run
 * unnamed, as before); the pool's idle connections are closed after a while, and their statements
 * with them. PostgreSQL chooses per statement between a plan for the given values and a generic
 * one (plan_cache_mode "auto"), so a skewed value still gets a plan of its own when it needs one;
 * text searches are always planned for their pattern (PLANNED_PER_CALL).
 *
 * `DATABASE_PREPARE=false` turns this off, for a connection pooler that cannot keep named
 * statements (PgBouncer before 1.21 in transaction mode).
 */
const MAX_PER_CONNECTION = 200;

interface QueryConfig {
  text?: string;
  name?: string;
  values?: unknown[];
  submit?: unknown;
}

const names = new Map<string, string | null>();

/**
 * A text search (`ilike`) is planned for its pattern on every call: a rare word is best found
 * through a trigram index, a common one by walking the list's order, and a generic plan would pick
 * one of the two for every pattern. Such statements are left unnamed.
 */
const PLANNED_PER_CALL = /\bilike\b/i;

function statementName(text: string): string | null {
  let name = names.get(text);
  if (name === undefined) {
    name = PLANNED_PER_CALL.test(text) ? null : `s_${createHash('sha1').update(text).digest('base64url')}`;
    // The map only remembers recent texts; a forgotten one is digested again, to the same name.
    if (names.size >= 5_000) names.clear();
    names.set(text, name);
  }
  return name;
}

export class StatementCachingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const named = new Set<string>();
    const send = this.query.bind(this) as (...args: unknown[]) => unknown;
    // pg's query has many overloads; this only adds a name to a parameterised one and keeps its types.
    this.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      const query = (typeof config === 'string' ? { text: config } : config) as QueryConfig | null;
      const params = Array.isArray(values) ? values : query?.values;
      if (
        query &&
        typeof query === 'object' &&
        typeof query.text === 'string' &&
        !query.name &&
        !query.submit &&
        params &&
        params.length > 0
      ) {
        const name = statementName(query.text);
        if (name && (named.has(name) || named.size < MAX_PER_CONNECTION)) {
          named.add(name);
          config = { ...query, name };
        }
      }
      return send(config, values, callback);
    }) as typeof this.query;
  }
}
