import { closeEmbeddedDatabases, openEmbeddedConnector } from '../../../server/connectors/embedded';
import { openMysqlConnector } from '../../../server/connectors/mysql';
import { openPostgresConnector } from '../../../server/connectors/postgresql';
import type { TableSource } from '../../../server/connectors/types';
import {
  configFromUrl,
  MYSQL_URL,
  onMysql,
  onPostgres,
  POSTGRES_URL,
  randomName,
  skipMysql,
  skipPostgres,
  startRelay,
} from '../connectors/db-helpers';
import { TEST_COMPANY_ID, testReach } from '../connectors/test-context';

/**
 * The three kinds of table source the quality engine is proven on: PostgreSQL, MariaDB (both real
 * servers on this machine) and the embedded database. Each test file gets a place of its own — a
 * schema, a database, an in-memory embedded database — with a random name, gone afterwards.
 */

export interface Place {
  source: TableSource;
  /** The schema (a database on MySQL) of this place. */
  schema: string;
  /** A table's endpoint, as a registered table names it. */
  endpoint(table: string): string;
  /** A table's qualified name, for setting up. */
  table(name: string): string;
  /** Runs a statement that sets things up (writes allowed). */
  exec(sql: string): Promise<void>;
  count(table: string): Promise<number>;
  /** SQL for the moment `minutes` before the source's own clock. */
  ago(minutes: number): string;
  timestampType: string;
  /** Creates a function that deletes every row of `table` and answers SQL calling it in a WHERE. */
  purgingQuery(table: string): Promise<string>;
  /** The same place through a relay that can be cut, as a server going away (servers only). */
  throughRelay?(): Promise<{ source: TableSource; cut(): Promise<void> }>;
  close(): Promise<void>;
}

export interface SourceKind {
  label: string;
  skip: boolean;
  open(): Promise<Place>;
}

const SETUP = { timeoutMs: 60_000 };

function commonParts(source: TableSource, qualify: (name: string) => string) {
  return {
    source,
    table: qualify,
    exec: async (sql: string) => {
      await source.query(sql, [], SETUP);
    },
    count: async (table: string) => Number((await source.query(`select count(*) as n from ${qualify(table)}`, [], SETUP))[0]?.n),
  };
}

const postgresAgo = (minutes: number) => `now() - interval '${minutes} minutes'`;

const postgresPurge = (place: Pick<Place, 'exec' | 'table'>, schemaPrefix: string) => async (table: string) => {
  const name = `${schemaPrefix}purge_${table}`;
  await place.exec(
    `create function ${name}() returns integer language plpgsql as $$ begin delete from ${place.table(table)}; return 1; end $$`,
  );
  return `select * from ${place.table(table)} where ${name}() = 1`;
};

export const SOURCE_KINDS: SourceKind[] = [
  {
    label: 'PostgreSQL',
    skip: skipPostgres,
    async open() {
      const schema = randomName('dq_pg');
      await onPostgres((client) => client.query(`create schema ${schema}`));
      const source = openPostgresConnector(configFromUrl('postgresql', POSTGRES_URL), { reach: testReach() });
      const parts = commonParts(source, (name) => `${schema}.${name}`);
      return {
        ...parts,
        schema,
        endpoint: (table) => `${schema}.${table}`,
        ago: postgresAgo,
        timestampType: 'timestamptz',
        purgingQuery: postgresPurge(parts, `${schema}.`),
        async throughRelay() {
          const relay = await startRelay(POSTGRES_URL);
          return {
            source: openPostgresConnector(configFromUrl('postgresql', POSTGRES_URL, { host: '127.0.0.1', port: relay.port }), {
              reach: testReach(),
            }),
            cut: relay.cut,
          };
        },
        async close() {
          await source.close();
          await onPostgres((client) => client.query(`drop schema if exists ${schema} cascade`));
        },
      };
    },
  },
  {
    label: 'MariaDB',
    skip: skipMysql,
    async open() {
      const database = randomName('dq_my');
      await onMysql((connection) => connection.query(`create database ${database}`));
      const source = openMysqlConnector(configFromUrl('mysql', MYSQL_URL, { database }), { reach: testReach() });
      const parts = commonParts(source, (name) => `${database}.${name}`);
      return {
        ...parts,
        schema: database,
        endpoint: (table) => `${database}.${table}`,
        ago: (minutes) => `now() - interval ${minutes} minute`,
        timestampType: 'datetime',
        async purgingQuery(table) {
          await parts.exec(
            `create function purge_${table}() returns int modifies sql data begin delete from ${parts.table(table)}; return 1; end`,
          );
          return `select * from ${parts.table(table)} where purge_${table}() = 1`;
        },
        async throughRelay() {
          const relay = await startRelay(MYSQL_URL);
          return {
            source: openMysqlConnector(configFromUrl('mysql', MYSQL_URL, { host: '127.0.0.1', port: relay.port, database }), {
              reach: testReach(),
            }),
            cut: relay.cut,
          };
        },
        async close() {
          await source.close();
          await onMysql((connection) => connection.query(`drop database if exists ${database}`));
        },
      };
    },
  },
  {
    label: 'embedded',
    skip: false,
    async open() {
      const source = openEmbeddedConnector(
        { companyId: TEST_COMPANY_ID, type: 'embedded', settings: { database: randomName('dq') }, secrets: {} },
        {},
      );
      const parts = commonParts(source, (name) => `public.${name}`);
      return {
        ...parts,
        schema: 'public',
        endpoint: (table) => `public.${table}`,
        ago: postgresAgo,
        timestampType: 'timestamptz',
        purgingQuery: postgresPurge(parts, 'public.'),
        async close() {
          await closeEmbeddedDatabases();
        },
      };
    },
  },
];

/** Forwards to a source, keeping every statement it is given. */
export function watchedSource(source: TableSource) {
  const statements: string[] = [];
  const wrapped: TableSource = {
    ...source,
    async query(sql, params, options) {
      statements.push(sql);
      return source.query(sql, params, options);
    },
  };
  return { source: wrapped, statements };
}
