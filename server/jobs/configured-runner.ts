import type { Secrets } from '../auth/secrets';
import type { Config } from '../config';
import type { ConnectorRegistry } from '../connectors/registry';
import type { Database } from '../db/client';
import type { Mailer } from '../mail/mailer';
import { createDatabricksEngine } from './databricks-engine';
import { createLocalRunner, type LocalRunner } from './local-runner';
import { createTaskExecutors } from './tasks';

/** What the server and the worker process both have when they build their runner. */
export interface RunnerServices {
  config: Config;
  database: Database;
  secrets: Secrets;
  mailer: Mailer;
  connectors: ConnectorRegistry;
}

/**
 * The local runner with the real task executors and the Databricks engine, as the server
 * (server/index.ts) and the worker process (server/worker.ts) run it, so that both work runs alike.
 */
export function createConfiguredRunner(services: RunnerServices): LocalRunner {
  const { config, database, secrets, mailer, connectors } = services;
  const db = database.db;
  return createLocalRunner({
    database,
    secrets,
    mailer,
    config,
    executors: createTaskExecutors({ db, secrets, connectors, mailer, config }),
    databricksEngine: createDatabricksEngine({ db, secrets, http: { reach: connectors.context.reach } }),
    slack: { http: { reach: connectors.context.reach } },
    plans: config.plans,
  });
}
