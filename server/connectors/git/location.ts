import { createHash } from 'node:crypto';
import type { AuthCallback } from 'isomorphic-git';
import type { Reach } from '../../reach/reach';
import { repositoryPlace, type CompanyPlace, type Places } from '../company-places';
import type { ConfinedFs } from '../confined-fs';
import { checkedSettings, ConnectorError, type ConnectionConfig } from '../types';

/** Where a repository is (a folder on the server, or a URL with its credentials), from a connection's settings. */

export interface GitOptions {
  /** The data directory (the company's repositories and cache of remote ones) and the granted roots (FILES_ROOTS). */
  places: Places;
  /** The guard every connection to a remote goes through. */
  reach: Reach;
  /** Asking a remote for its branches stops after this long (15 s unless told); a fetch gets eight times as long. */
  timeoutMs?: number;
}

export type Location =
  | { kind: 'local'; companyId: string; place: CompanyPlace }
  /** `cacheKey` tells cached copies apart by URL and credentials: what one set of credentials fetched is not served to another. */
  | { kind: 'remote'; companyId: string; url: string; onAuth: AuthCallback | undefined; cacheKey: string };

export type Remote = Extract<Location, { kind: 'remote' }>;

/** A repository ready to read: its git directory and the only file system that reaches it. */
export interface Opened {
  gitdir: string;
  fs: ConfinedFs;
}

export function locationOf(config: ConnectionConfig, options: GitOptions): Location {
  const { settings, secrets } = checkedSettings(config, 'git');
  const url = String(settings.url).trim();
  if (/^https?:\/\//i.test(url)) {
    try {
      new URL(url);
    } catch {
      throw new ConnectorError(`settings.url: "${url}" is not a valid URL`, 'invalid');
    }
    const username = String(settings.username ?? '').trim();
    const password = secrets.password;
    const onAuth: AuthCallback | undefined = username || password ? () => ({ username, password }) : undefined;
    const cacheKey = createHash('sha256')
      .update([url, username, password ?? ''].join('\0'))
      .digest('hex')
      .slice(0, 32);
    return { kind: 'remote', companyId: config.companyId, url, onAuth, cacheKey };
  }
  return { kind: 'local', companyId: config.companyId, place: repositoryPlace(options.places, config.companyId, url)! };
}

/** How the repository is named in messages: as the company wrote its path, or its URL without credentials. */
export function describe(location: Location): string {
  if (location.kind === 'local') return location.place.shown;
  const url = new URL(location.url);
  url.username = '';
  url.password = '';
  return url.href;
}
