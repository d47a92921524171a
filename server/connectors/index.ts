import path from 'node:path';
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
  const cacheDir = context.dataDir ? path.join(context.dataDir, 'git-cache') : undefined;
  return new ConnectorRegistry(
    {
      postgresql: (config) => openPostgresConnector(config),
      mysql: (config) => openMysqlConnector(config),
      embedded: (config) => openEmbeddedConnector(config, { dataDir: context.dataDir }),
      files: (config) => openFilesConnector(config),
      s3: (config) => openS3Connector(config),
      gcs: (config) => openGcsConnector(config),
      azure_blob: (config) => openAzureBlobConnector(config),
      databricks: (config) => openDatabricksConnector(config),
      slack: (config) => openSlackConnector(config),
      bitbucket: (config) => openBitbucketConnector(config),
      git: (config) => openGitConnector(config, { cacheDir }),
    },
    context,
  );
}
