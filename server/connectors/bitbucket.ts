import { callServiceJson, secureBaseUrl, serviceUrl, type HttpOptions, type HttpService } from './http';
import { checkedSettings, ConnectorError, type ConnectionConfig, type Connector, type Endpoint } from './types';

/**
 * The `bitbucket` type: a Bitbucket Cloud workspace reached with an Atlassian account's email and
 * an API token with scopes. Its endpoints are the workspace's repositories, by slug, where
 * workflows keep their SQL files; workflows read those files over git's https.
 *
 * How Bitbucket takes an API token, as Atlassian documents it in "Using API tokens"
 * (https://support.atlassian.com/bitbucket-cloud/docs/using-api-tokens/):
 * - the REST API takes HTTP basic auth with the Atlassian account email as the user name and the
 *   token as the password (the same page, and "Get repository list within project by using API",
 *   https://support.atlassian.com/bitbucket-cloud/kb/get-repository-list-within-project-by-using-api/,
 *   which lists a workspace's repositories that way with the scope read:repository:bitbucket);
 * - git over https takes either the person's Bitbucket username or the fixed user name
 *   `x-bitbucket-api-token-auth`, with the token as the password. The fixed one is used, so that
 *   the form needs no second name.
 * App passwords, which this type took until Bitbucket removed them, are recognised in a stored
 * connection and refused with what to do instead, before anything is sent.
 */

/** git's user name for an API token, whoever made it (Atlassian's "Using API tokens"). */
export const BITBUCKET_GIT_USERNAME = 'x-bitbucket-api-token-auth';

export const APP_PASSWORDS_RETIRED =
  'Bitbucket no longer accepts app passwords (they were removed on 28 July 2026): edit this connection and give the email of your Atlassian account and an API token with the scope read:repository:bitbucket';

export interface BitbucketSettings {
  workspace: string;
  /** The Atlassian account's email: the REST API's user name with the token. */
  email: string;
  apiToken: string;
  apiUrl: URL;
}

export interface BitbucketOptions {
  http: HttpOptions;
}

/**
 * A connection saved with a username and an app password, before Bitbucket took API tokens only:
 * it still lists and opens in the console, but nothing is sent to Bitbucket with it. Settings
 * given over it with a token (an edit being tested) are the new ones.
 */
function usesAppPassword(config: ConnectionConfig): boolean {
  const hasToken = typeof config.secrets.apiToken === 'string' && config.secrets.apiToken.trim() !== '';
  return !hasToken && ('appPassword' in config.secrets || 'username' in config.settings);
}

export function bitbucketSettings(config: ConnectionConfig): BitbucketSettings {
  if (usesAppPassword(config)) throw new ConnectorError(APP_PASSWORDS_RETIRED, 'invalid');
  // An edit's test lays the new settings over the stored ones: the old ones are no longer read.
  const { username: _username, ...current } = config.settings;
  const { appPassword: _appPassword, ...secrets } = config.secrets;
  const checked = checkedSettings({ ...config, settings: current, secrets }, 'bitbucket');
  return {
    workspace: String(checked.settings.workspace).trim(),
    email: String(checked.settings.email).trim(),
    apiToken: checked.secrets.apiToken!,
    apiUrl: secureBaseUrl(checked.settings.apiUrl, 'apiUrl'),
  };
}

/**
 * A repository of the workspace as a `git` connection: at `https://bitbucket.org/<workspace>/<slug>.git`
 * (the API's own origin when the connection points at another Bitbucket API), signed in with
 * git's user name for API tokens and the token.
 */
export function bitbucketRepository(config: ConnectionConfig, slug: string): ConnectionConfig {
  const settings = bitbucketSettings(config);
  const origin = settings.apiUrl.hostname === 'api.bitbucket.org' ? 'https://bitbucket.org' : settings.apiUrl.origin;
  return {
    companyId: config.companyId,
    type: 'git',
    settings: {
      url: `${origin}/${encodeURIComponent(settings.workspace)}/${encodeURIComponent(slug)}.git`,
      username: BITBUCKET_GIT_USERNAME,
    },
    secrets: { password: settings.apiToken },
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
  const authorization = `Basic ${Buffer.from(`${settings.email}:${settings.apiToken}`).toString('base64')}`;
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
