import type { Secrets } from './auth/secrets';
import type { Config } from './config';
import { createConnectorRegistry, serverConnectorContext } from './connectors';
import { closeEmbeddedDatabases } from './connectors/embedded';
import type { Database } from './db/client';
import { createMailer } from './mail/mailer';
import { createCompanyMailRoutes } from './settings/mail-route';

/**
 * What a server process (the API server, the worker) works with: the mailer, whose company
 * routes reach mail servers through the same guard as connections, and the connectors.
 */
export function processServices(config: Config, database: Database, secrets: Secrets) {
  const connectorContext = serverConnectorContext(config, database.db);
  const mailer = createMailer(database.db, {
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    companyRoute: createCompanyMailRoutes(database.db, secrets, connectorContext.reach).route,
  });
  return { mailer, connectors: createConnectorRegistry(connectorContext) };
}

/**
 * How a server process (the API server, the worker) stops on SIGINT or SIGTERM: once, saying
 * why, ending its own work first, then the companies' embedded databases, then its database.
 */
export function stopOnSignals(said: (signal: string) => string, stopWork: () => Promise<void>, database: { close(): Promise<void> }): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(said(signal));
    try {
      await stopWork();
      await closeEmbeddedDatabases();
    } finally {
      await database.close();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
