import { callServiceJson, secureBaseUrl, serviceUrl, type HttpOptions, type HttpService } from './http';
import { checkedSettings, ConnectorError, type ConnectionConfig, type Connector, type Endpoint } from './types';

/**
 * The `bitbucket` type: a Bitbucket Cloud workspace reached with a username and an app password
 * (HTTP basic auth). Its endpoints are the workspace's repositories, by slug, where workflows
 * keep their SQL files.
 */

export interface BitbucketSettings {
  workspace: string;
  username: string;
  appPassword: string;
  apiUrl: URL;
}

export interface BitbucketOptions {
  http: HttpOptions;
}

export function bitbucketSettings(config: ConnectionConfig): BitbucketSettings {
  const { settings, secrets } = checkedSettings(config, 'bitbucket');
  return {
    workspace: String(settings.workspace).trim(),
    username: String(settings.username).trim(),
    appPassword: secrets.appPassword!,
    apiUrl: secureBaseUrl(settings.apiUrl, 'apiUrl'),
  };
}

/** Bitbucket says what went wrong as `{ type: "error", error: { message, detail } }`. */
const BITBUCKET: HttpService = {
  name: 'Bitbucket',
  errorText(body) {
    try {
      const parsed = JSON.parse(body) as { error?: { message?: string; detail?: string } };
      const { message, detail } = parsed.error ?? {};
      if (!message) return undefined;
      return detail && typeof detail === 'string' ? `${message}: ${detail}` : message;
    } catch {
      return undefined;
    }
  },
};

interface RepositoryPage {
  size?: number;
  next?: string;
  values?: Array<{ slug: string; name?: string; full_name?: string; project?: { name?: string } }>;
}

/** A workspace may hold more repositories than a person can pick from; the list stops here. */
const MAX_REPOSITORIES = 10_000;

export function openBitbucketConnector(config: ConnectionConfig, options: BitbucketOptions): Connector {
  const settings = bitbucketSettings(config);
  const authorization = `Basic ${Buffer.from(`${settings.username}:${settings.appPassword}`).toString('base64')}`;
  const repositoriesUrl = (pagelen: number) =>
    serviceUrl(settings.apiUrl, `/repositories/${encodeURIComponent(settings.workspace)}`, { pagelen });
  const call = (url: URL) => callServiceJson<RepositoryPage>(BITBUCKET, url, { headers: { authorization } }, options.http);

  return {
    async test() {
      const started = performance.now();
      const page = await call(repositoriesUrl(1));
      const count = page.size ?? page.values?.length ?? 0;
      return {
        latencyMs: Math.round(performance.now() - started),
        detail: `${count} repositor${count === 1 ? 'y' : 'ies'} in ${settings.workspace}`,
      };
    },

    async endpoints(): Promise<Endpoint[]> {
      const repositories: Endpoint[] = [];
      let url: URL | undefined = repositoriesUrl(100);
      while (url && repositories.length < MAX_REPOSITORIES) {
        const page = await call(url);
        for (const repository of page.values ?? []) {
          repositories.push({
            id: repository.slug,
            name: repository.name ?? repository.slug,
            kind: 'repository',
            ...(repository.project?.name ? { group: repository.project.name } : {}),
          });
        }
        url = page.next ? sameOrigin(page.next, settings.apiUrl) : undefined;
      }
      return repositories;
    },

    async close() {},
  };
}

/** The credentials go only where the connection points: a `next` link elsewhere is refused. */
function sameOrigin(link: string, apiUrl: URL): URL {
  const url = new URL(link, apiUrl);
  if (url.origin !== apiUrl.origin)
    throw new ConnectorError(`Bitbucket: the next page is at ${url.origin}, not at ${apiUrl.origin}`, 'failed');
  return url;
}
