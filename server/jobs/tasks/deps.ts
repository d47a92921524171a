import type { Secrets } from '../../auth/secrets';
import type { Config } from '../../config';
import type { ConnectorRegistry } from '../../connectors/registry';
import type { Db } from '../../db/client';
import type { Mailer } from '../../mail/mailer';

/** What the task executors need of the server. */
export interface TaskDeps {
  db: Db;
  secrets: Secrets;
  connectors: ConnectorRegistry;
  mailer: Mailer;
  /** `dataDir` holds the cache of remote repositories (`git-cache`, as for the workflow routes); `publicUrl` and `port` make the link to a run in notifications. */
  config: Pick<Config, 'dataDir' | 'publicUrl' | 'port'>;
}
