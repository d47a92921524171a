import { closeEmbeddedDatabases } from './connectors/embedded';

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
