import type { ConnectionType } from '../../common/connections';
import { azureBlobSettings } from '../connectors/azure-blob';
import { bitbucketSettings } from '../connectors/bitbucket';
import { checkConnectionPlaces } from '../connectors/company-places';
import { databricksSettings } from '../connectors/databricks';
import { checkEmbeddedDatabase } from '../connectors/embedded';
import { gcsSettings } from '../connectors/gcs';
import type { ConnectorContext } from '../connectors/registry';
import { s3Settings } from '../connectors/s3';
import { slackSettings } from '../connectors/slack';
import { databaseServerSettings } from '../connectors/database-server';
import { ConnectorError, type ConnectionConfig } from '../connectors/types';
import { repositoryFile } from '../jobs/tasks/repository';

/**
 * What a connection's settings will make the server reach, judged when the connection is saved
 * and before it is tested, so that a host, folder or database this server does not let companies
 * reach is refused with a 400 naming the setting — before anything is stored or dialled. The
 * connectors judge again at every use (the reach guard at each dial, the places at each open):
 * this check only answers early.
 */

export interface ReachTarget {
  host: string;
  port: number;
  /** The setting that names it, as a 400 names the field. */
  field: string;
}

function urlTarget(url: URL, field: string): ReachTarget {
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port, field };
}

/** The hosts each type's settings name (types without a host reach none). */
const TARGETS: Partial<Record<ConnectionType, (config: ConnectionConfig) => ReachTarget[]>> = {
  postgresql: (config) => {
    const settings = databaseServerSettings(config, 5432);
    return [{ host: settings.host, port: settings.port, field: 'settings.host' }];
  },
  mysql: (config) => {
    const settings = databaseServerSettings(config, 3306);
    return [{ host: settings.host, port: settings.port, field: 'settings.host' }];
  },
  s3: (config) => {
    const settings = s3Settings(config);
    const target = urlTarget(settings.endpoint, 'settings.endpoint');
    // A virtual-hosted bucket is reached at its own name under the endpoint's.
    return [settings.pathStyle ? target : { ...target, host: `${settings.bucket}.${target.host}` }];
  },
  gcs: (config) => {
    const settings = gcsSettings(config);
    return [urlTarget(settings.endpoint, 'settings.endpoint'), urlTarget(settings.key.tokenUri, 'settings.serviceAccountKey')];
  },
  azure_blob: (config) => [urlTarget(azureBlobSettings(config).endpoint, 'settings.endpoint')],
  databricks: (config) => [urlTarget(databricksSettings(config).host, 'settings.host')],
  slack: (config) => {
    const settings = slackSettings(config);
    return settings.mode === 'webhook'
      ? [urlTarget(settings.webhookUrl, 'settings.webhookUrl')]
      : [urlTarget(settings.apiUrl, 'settings.apiUrl')];
  },
  bitbucket: (config) => {
    const settings = bitbucketSettings(config);
    // SQL tasks read the workspace's repositories over git's https, at the site the API belongs to.
    const gitUrl = new URL(String(repositoryFile(config, 'repository/file').repository.settings.url));
    return [urlTarget(settings.apiUrl, 'settings.apiUrl'), urlTarget(gitUrl, 'settings.apiUrl')];
  },
  git: (config) => {
    const url = String(config.settings.url ?? '').trim();
    return /^https?:\/\//i.test(url) ? [urlTarget(new URL(url), 'settings.url')] : [];
  },
};

export function connectionTargets(config: ConnectionConfig): ReachTarget[] {
  return TARGETS[config.type]?.(config) ?? [];
}

/**
 * Refuses what the connection would reach that this server does not let companies reach: a host
 * (CONNECTION_ALLOWED_HOSTS / CONNECTION_DENIED_HOSTS and the default), a local folder or
 * repository (FILES_ROOTS, the company's own data folder), one embedded database more than the
 * company may have. A host that cannot be resolved now is not refused: the test says so, and it
 * is judged again when it is dialled.
 */
export async function checkConnectionReach(context: ConnectorContext, config: ConnectionConfig): Promise<void> {
  try {
    await checkConnectionPlaces(context, config);
  } catch (error) {
    // Another company's folder is a missing one of this company: a bad setting, answered as such (400).
    if (error instanceof ConnectorError && error.kind === 'not_found') throw new ConnectorError(error.message, 'invalid');
    throw error;
  }
  if (config.type === 'embedded') await checkEmbeddedDatabase(context, config.companyId, String(config.settings.database ?? ''));
  for (const target of connectionTargets(config)) {
    try {
      await context.reach.check(target);
    } catch (error) {
      if (error instanceof ConnectorError && (error.kind === 'refused' || error.kind === 'invalid')) {
        throw new ConnectorError(`${target.field}: ${error.message}`, error.kind);
      }
    }
  }
}
