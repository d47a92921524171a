import { canRunStatements, isTableSource, type TableSource } from '../../server/connectors/types';
import type { TestServer } from './harness';

/**
 * The test company's embedded database of a name, opened as the server opens it for a connection
 * of type `embedded`: for a test to fill it and read it directly, beside the routes or tasks it
 * proves. Closing one is optional: the database stays open for the server's own connectors.
 */
export function embeddedSource(server: TestServer, database: string): TableSource {
  const connector = server.app.ctx.connectors.open({
    companyId: server.company.companyId,
    type: 'embedded',
    settings: { database },
    secrets: {},
  });
  if (!isTableSource(connector)) throw new Error('an embedded database is a table source');
  return connector;
}

/** Runs statements (tables made, rows written) on the test company's embedded database of a name. */
export async function onEmbedded(server: TestServer, database: string, statements: string[]): Promise<void> {
  const connector = embeddedSource(server, database);
  try {
    if (!canRunStatements(connector)) throw new Error('an embedded database runs statements');
    await connector.runStatements(statements);
  } finally {
    await connector.close();
  }
}

/** The rows one query reads from the test company's embedded database of a name. */
export async function readEmbedded<Row extends Record<string, unknown> = Record<string, unknown>>(
  server: TestServer,
  database: string,
  sql: string,
): Promise<Row[]> {
  const connector = embeddedSource(server, database);
  try {
    return await connector.query<Row>(sql, [], { timeoutMs: 60_000 });
  } finally {
    await connector.close();
  }
}
