import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Mailer } from '../mail/mailer';
import type { Secrets } from '../auth/secrets';
import type { ConnectorRegistry } from '../connectors/registry';
import type { JobRunner } from '../jobs/types';

/**
 * What every part of the server is given: the database, the configuration and the shared
 * services. It lives here, not in server/app.ts, so that routes and services can name it
 * without importing the server's assembly (which imports them).
 */
export interface AppContext {
  db: Db;
  config: Config;
  mailer: Mailer;
  secrets: Secrets;
  /** Opens connectors to the companies' sources, destinations and integrations. */
  connectors: ConnectorRegistry;
  /** Queues, cancels and schedules workflow runs. */
  runner: JobRunner;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export type App = FastifyInstance & { withTypeProvider(): FastifyInstance };

export const API_PREFIX = '/api/v1';
/** JSON bodies above this size are refused with 413 (uploads set their own limits). */
export const BODY_LIMIT_BYTES = 1024 * 1024;
