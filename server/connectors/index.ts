import { count } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { companies } from '../db/schema';
import { asSystem } from '../db/tenant-scope';
import { createReach, type Reach, type ReachOptions } from '../reach/reach';
import { openAzureBlobConnector } from './azure-blob';
import { openBitbucketConnector } from './bitbucket';
import { openDatabricksConnector } from './databricks';
import { openEmbeddedConnector } from './embedded';
import { openFilesConnector } from './files';
import { openGcsConnector } from './gcs';
import { openGitConnector } from './git';
import { openMysqlConnector } from './mysql';
import { openPostgresConnector } from './postgresql';
import { ConnectorRegistry, type ConnectorContext } from './registry';
import { openS3Connector } from './s3';
import { openSlackConnector } from './slack';

/** The connector of every connection type, opened with what the server knows of its own place. */
export function createConnectorRegistry(context: ConnectorContext): ConnectorRegistry {
  const http = { reach: context.reach };
  return new ConnectorRegistry(
    {
      postgresql: (config) => openPostgresConnector(config, { reach: context.reach }),
      mysql: (config) => openMysqlConnector(config, { reach: context.reach }),
      embedded: (config) => openEmbeddedConnector(config, context),
      files: (config) => openFilesConnector(config, { places: context }),
      s3: (config) => openS3Connector(config, { reach: context.reach }),
      gcs: (config) => openGcsConnector(config, { http }),
      azure_blob: (config) => openAzureBlobConnector(config, { http }),
      databricks: (config) => openDatabricksConnector(config, { http }),
      slack: (config) => openSlackConnector(config, { http }),
      bitbucket: (config) => openBitbucketConnector(config, { http }),
      git: (config) => openGitConnector(config, { places: context, reach: context.reach }),
    },
    context,
  );
}

/** How long the answer "does this server host more than one company" is kept (it changes only with sign-ups). */
const COMPANY_COUNT_TTL_MS = 5_000;

/**
 * The reach guard of this server: the operator's lists, and the default of a server that hosts
 * many companies whenever company sign-up is open or more than one company exists.
 */
export function serverReach(config: Config, db: Db, extra: Pick<ReachOptions, 'resolve' | 'onDial'> = {}): Reach {
  let counted: { at: number; many: Promise<boolean> } | undefined;
  const manyCompanies = () => {
    if (config.allowCompanySignup) return Promise.resolve(true);
    if (!counted || Date.now() - counted.at > COMPANY_COUNT_TTL_MS) {
      const many = asSystem('the reach policy asks whether the server hosts more than one company', async () => {
        const [row] = await db.select({ n: count() }).from(companies);
        return (row?.n ?? 0) > 1;
      });
      counted = { at: Date.now(), many };
      // A failed count is not kept, and counts as many companies: the safe side.
      many.catch(() => {
        counted = undefined;
      });
    }
    return counted.many.catch(() => true);
  };
  return createReach({
    allowed: config.reach.allowedHosts,
    denied: config.reach.deniedHosts,
    manyCompanies,
    ownDatabase: ownDatabaseOf(config.databaseUrl),
    ...extra,
  });
}

/** The host and port of DATABASE_URL, when it names a server over TCP (not a local socket). */
function ownDatabaseOf(databaseUrl: string | undefined): { host: string; port: number } | undefined {
  if (!databaseUrl) return undefined;
  try {
    const url = new URL(databaseUrl);
    const socketHost = url.searchParams.get('host');
    if (!url.hostname || (socketHost && socketHost.startsWith('/'))) return undefined;
    return { host: decodeURIComponent(url.hostname), port: url.port ? Number(url.port) : 5432 };
  } catch {
    return undefined;
  }
}

/** The connectors' context of a server: its data directory, its reach guard and the operator's limits. */
export function serverConnectorContext(config: Config, db: Db, extra: Pick<ReachOptions, 'resolve' | 'onDial'> = {}): ConnectorContext {
  return {
    dataDir: config.dataDir,
    reach: serverReach(config, db, extra),
    filesRoots: config.filesRoots,
    embedded: {
      maxPerCompany: config.embedded.maxPerCompany,
      idleMs: config.embedded.idleSeconds * 1000,
      buffersMb: config.embedded.buffersMb,
    },
  };
}
