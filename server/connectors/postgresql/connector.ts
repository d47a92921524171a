import pg from 'pg';
import type { Reach } from '../../reach/reach';
import { connectingError, isConnectionLost, postgresError } from '../sql-errors';
import { checkedServer, databaseServerSettings } from '../database-server';
import { ConnectorError, type ConnectionConfig, type TableSource } from '../types';
import { sessionOf, type ClientControl } from './client-session';
import { DATE_TYPE_OIDS, type PostgresAccess } from './session';
import { postgresTableSource } from './table-source';

/** A connection attempt gives up after this long (a connection test answers within 15 s). */
const CONNECT_TIMEOUT_MS = 10_000;
/** Clients per connector: work reads one statement at a time; a few let a test and a run overlap. */
const POOL_SIZE = 3;
/** How long past its own limit a statement may go unanswered before the client stops waiting (a host gone silent sends no error). */
const UNANSWERED_GRACE_MS = 5_000;

const textDates = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    DATE_TYPE_OIDS.includes(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** The `postgresql` connection type: a PostgreSQL server reached with `pg`, through a small pool opened on first use. */
export interface PostgresOptions {
  /** The guard the server's host goes through: checked once, and only its checked addresses dialled. */
  reach: Reach;
}

export function openPostgresConnector(config: ConnectionConfig, options: PostgresOptions): TableSource {
  let pool: pg.Pool | undefined;
  const checkedTarget = checkedServer(config, 5432, options.reach);
  const where = () => databaseServerSettings(config, 5432);
  const clientConfig = async (): Promise<pg.ClientConfig> => {
    const settings = databaseServerSettings(config, 5432);
    const target = await checkedTarget();
    return {
      // The host stays the name the company gave (TLS checks the certificate against it); the socket dials only the checked addresses.
      host: settings.host,
      port: settings.port,
      stream: () => target.socket(),
      database: settings.database,
      user: settings.user,
      password: settings.password,
      ssl: settings.tls,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      application_name: 'DataOps Console',
      types: textDates,
    };
  };
  const poolOf = async () => {
    if (!pool) {
      const made = new pg.Pool({ ...(await clientConfig()), max: POOL_SIZE, idleTimeoutMillis: 30_000 });
      if (pool) {
        void made.end();
        return pool;
      }
      pool = made;
      // An idle client whose server goes away must not crash the process; the next use reports it.
      pool.on('error', () => {});
    }
    return pool;
  };
  const access: PostgresAccess = {
    enforcesStatementTimeout: true,
    sharedSession: false,
    async withSession(work, timeoutMs, options = {}) {
      let client: pg.PoolClient;
      try {
        client = await (await poolOf()).connect();
      } catch (err) {
        throw connectingError(err, 'postgres', where().host, where().port);
      }
      // A server that goes away mid-statement is also reported as an 'error' event: the statement's own failure says it.
      const ignore = () => {};
      client.on('error', ignore);
      let failure: ConnectorError | undefined;
      let spoiled = options.discardAfter === true;
      const control: ClientControl = {
        spoil: () => {
          spoiled = true;
        },
        async cancel() {
          const processId = (client as unknown as { processID?: number }).processID;
          if (processId !== undefined) await (await poolOf()).query('select pg_cancel_backend($1)', [processId]);
        },
      };
      try {
        return await work(sessionOf(client, timeoutMs + UNANSWERED_GRACE_MS, control), Date.now() + timeoutMs);
      } catch (err) {
        failure = postgresError(err);
        throw failure;
      } finally {
        // A client that lost its server, or stopped waiting for it, or that a COPY or a script left in doubt, is discarded rather than reused.
        let discard = spoiled || (failure !== undefined && isConnectionLost(failure));
        // A client given back to the pool carries nothing a statement left (settings, advisory locks, temporary tables, prepared
        // statements, LISTEN): DISCARD ALL, which runs outside a transaction. One that cannot be reset is discarded.
        if (!discard) {
          try {
            if (client.getTransactionStatus() !== 'I')
              await client.query({ text: 'rollback', query_timeout: UNANSWERED_GRACE_MS } as pg.QueryConfig);
            await client.query({ text: 'discard all', query_timeout: UNANSWERED_GRACE_MS } as pg.QueryConfig);
          } catch {
            discard = true;
          }
        }
        client.off('error', ignore);
        client.release(discard ? (failure ?? true) : undefined);
      }
    },
  };
  return {
    ...postgresTableSource(access),
    async test() {
      const started = performance.now();
      const client = new pg.Client(await clientConfig());
      try {
        try {
          await client.connect();
        } catch (err) {
          throw connectingError(err, 'postgres', where().host, where().port);
        }
        const { rows } = await client.query('select version() as version');
        return { latencyMs: Math.round(performance.now() - started), detail: String(rows[0]?.version ?? '') };
      } catch (err) {
        throw postgresError(err);
      } finally {
        await client.end().catch(() => {});
      }
    },
    async close() {
      const open = pool;
      pool = undefined;
      await open?.end();
    },
  };
}
