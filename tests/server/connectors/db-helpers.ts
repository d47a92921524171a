import crypto from 'node:crypto';
import net from 'node:net';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { ConnectionConfig } from '../../../server/connectors/types';
import { TEST_COMPANY_ID } from './test-context';

/**
 * The real databases the connector and quality tests run against: PostgreSQL and MariaDB on this
 * machine (or TEST_POSTGRES_URL / TEST_MYSQL_URL). A test file skips a database that does not
 * answer, unless REQUIRE_TEST_DATABASES=1, where an unreachable database fails its tests instead.
 * Each test works in a schema or database of its own, with a random name, dropped afterwards.
 */

export const POSTGRES_URL = process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
export const MYSQL_URL = process.env.TEST_MYSQL_URL || 'mysql://root@127.0.0.1:3306/test';
const REQUIRED = process.env.REQUIRE_TEST_DATABASES === '1';

async function answers(connect: () => Promise<{ end(): Promise<void> }>): Promise<boolean> {
  try {
    const connection = await connect();
    await connection.end();
    return true;
  } catch {
    return false;
  }
}

export const postgresReachable = await answers(async () => {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  return client;
});
export const mysqlReachable = await answers(() => mysql.createConnection({ uri: MYSQL_URL, connectTimeout: 3000 }));

/** Whether a file's tests of a database are skipped: only when it does not answer and is not required. */
export const skipPostgres = !postgresReachable && !REQUIRED;
export const skipMysql = !mysqlReachable && !REQUIRED;

export const randomName = (prefix: string) => `${prefix}_${crypto.randomBytes(5).toString('hex')}`;

/** A connection's config from a database URL, as the connections routes would store it. */
export function configFromUrl(
  type: 'postgresql' | 'mysql',
  url: string,
  overrides: { host?: string; port?: number; database?: string; user?: string; password?: string } = {},
): ConnectionConfig {
  const parsed = new URL(url);
  const password = overrides.password ?? decodeURIComponent(parsed.password);
  return {
    companyId: TEST_COMPANY_ID,
    type,
    settings: {
      host: overrides.host ?? parsed.hostname,
      port: overrides.port ?? Number(parsed.port || (type === 'postgresql' ? 5432 : 3306)),
      database: overrides.database ?? decodeURIComponent(parsed.pathname.slice(1)),
      user: overrides.user ?? decodeURIComponent(parsed.username),
      ssl: 'disable',
    },
    secrets: password ? { password } : {},
  };
}

/** Runs statements on PostgreSQL outside any connector, for setting up and checking. */
export async function onPostgres<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs statements on MySQL/MariaDB outside any connector, for setting up and checking. */
export async function onMysql<T>(work: (connection: mysql.Connection) => Promise<T>, database?: string): Promise<T> {
  const connection = await mysql.createConnection({ uri: MYSQL_URL, ...(database ? { database } : {}) });
  try {
    return await work(connection);
  } finally {
    await connection.end();
  }
}

/** A port on this machine where nothing listens: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A TCP relay to a database on a port of its own. `cut()` stops it the way a source goes away:
 * open connections are dropped and new ones refused.
 */
export async function startRelay(targetUrl: string): Promise<{ port: number; cut(): Promise<void> }> {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port || (target.protocol.startsWith('postgres') ? 5432 : 3306));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
