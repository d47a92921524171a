import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConnectorContext } from './registry';
import { checkedSettings, ConnectorError, type ConnectionConfig } from './types';

/**
 * The places on the server that belong to a company, and the only local paths its connections
 * may open. A folder or repository a company names is hostile input: on a server hosting many
 * companies, a path is how one would read the machine, the data directory or another company.
 *
 * - A company's root is `DATA_DIR/companies/<companyId>`: its embedded databases (`embedded/`),
 *   its folders of files (`files/`), its repositories on the server (`repositories/`) and its
 *   cache of remote repositories (`git-cache/`). A relative path names a place under its root.
 * - An absolute path must lie in the company's own sub-folder of a folder the operator grants
 *   (FILES_ROOTS): `<grantedRoot>/<companyId>/…`. The company id, not the host name, names the
 *   sub-folder: a host name can be freed and taken by another company.
 * - A path of another company's sub-folder is answered as a missing one: this company cannot
 *   tell whether it exists.
 *
 * The words of a path are checked before anything is read; where it leads (after symbolic links)
 * is checked again at every use, since links can change (`realPlace`).
 */

export type Places = Pick<ConnectorContext, 'dataDir' | 'filesRoots'>;

/** What a local path is for: which setting names it, and which folder of the company's root a relative one lies in. */
export interface PlaceUse {
  /** `settings.path`, `settings.url` */
  field: string;
  /** The sub-folder of the company's root a relative path lies in. */
  folder: 'files' | 'repositories';
  /** What it is, in messages: "folder", "repository". */
  noun: string;
}

export const FILES_FOLDER: PlaceUse = { field: 'settings.path', folder: 'files', noun: 'folder' };
export const REPOSITORY_FOLDER: PlaceUse = { field: 'settings.url', folder: 'repositories', noun: 'repository' };

/** A local path a company named, once its words are known to be allowed. */
export interface CompanyPlace {
  /** How messages name it: as the company wrote it (normalised), never the server's own folders. */
  shown: string;
  /** Where it is on the server. */
  path: string;
  /** The folder it must stay inside, links followed: the company's sub-folder of a granted root, or a folder of its root. */
  within: string;
}

/** Company ids are UUIDs; anything that could climb or split a path is not one. */
const COMPANY_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;

function companySegment(companyId: string): string {
  if (!COMPANY_ID.test(companyId)) throw new ConnectorError('This connection names no company the server can keep files for', 'invalid');
  return companyId;
}

/** `DATA_DIR/companies/<companyId>`: everything the server keeps on disk for one company. */
export function companyRoot(dataDir: string, companyId: string): string {
  return path.join(path.resolve(dataDir), 'companies', companySegment(companyId));
}

/** Where a company's remote repositories are fetched to: never a folder another company's fetches use. */
export function companyGitCache(dataDir: string, companyId: string): string {
  return path.join(companyRoot(dataDir, companyId), 'git-cache');
}

/** The folder of the data directory that held every company's fetched repositories together, before they had one each. */
export function legacyGitCache(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'git-cache');
}

/** The company's sub-folder of each granted root, as messages name them. */
function grantedFolders(places: Places, companyId: string): string[] {
  return places.filesRoots.map((root) => `${path.join(root, companyId)}/`);
}

/** What the company may give instead of a refused path. */
function alternatives(places: Places, companyId: string, use: PlaceUse): string {
  const granted = grantedFolders(places, companyId);
  const relative = places.dataDir ? `a ${use.noun === 'folder' ? 'folder' : 'path'} relative to this company's data folder` : undefined;
  const under = granted.length > 0 ? `one under ${granted.join(' or ')} (FILES_ROOTS)` : undefined;
  const choices = [relative, under].filter(Boolean);
  if (granted.length === 0) {
    const grant = 'an operator can grant folders with FILES_ROOTS';
    return choices.length > 0 ? `Give ${choices[0]}; ${grant}` : `This server grants companies no folder yet: ${grant}`;
  }
  return `Give ${choices.join(', or ')}`;
}

function refusal(places: Places, companyId: string, use: PlaceUse, why: string): ConnectorError {
  return new ConnectorError(`${use.field}: ${why}. ${alternatives(places, companyId, use)}`, 'refused');
}

/** Whether `candidate` is `root` or lies under it (both absolute, compared by their words). */
export function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  // A name that only starts with two dots (`..x`) is inside.
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

/**
 * The place a local path names, or the refusal of its words: an absolute path outside the
 * company's granted sub-folders, `..`, a URL, a NUL. Nothing is read here.
 */
export function companyPlace(places: Places, companyId: string, written: string, use: PlaceUse): CompanyPlace {
  const own = companySegment(companyId);
  const text = written.trim();
  const refuse = (why: string) => refusal(places, own, use, why);
  if (text.includes('\0')) throw refuse('a path may not hold a NUL character');
  if (/^file:/i.test(text)) throw refuse(`this server does not let companies read file:// URLs (${JSON.stringify(text)})`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) throw refuse(`${JSON.stringify(text)} is a URL, not a ${use.noun} on the server`);
  if (text === '') throw refuse(`give a ${use.noun}`);
  if (text.split(/[\\/]+/).includes('..')) throw refuse(`this server does not let companies use ".." in a path (${JSON.stringify(text)})`);

  if (!path.isAbsolute(text)) {
    if (!places.dataDir) throw refuse(`this server keeps no data folder, so ${JSON.stringify(text)} names nothing`);
    const within = path.join(companyRoot(places.dataDir, own), use.folder);
    const relative = path.normalize(text).replace(/\/+$/, '');
    return { shown: relative, path: relative === '.' ? within : path.join(within, relative), within };
  }

  const absolute = path.normalize(text).replace(/(.)\/+$/, '$1');
  const granted = places.filesRoots.find((root) => isInside(path.join(root, own), absolute));
  if (granted) return { shown: absolute, path: absolute, within: path.join(granted, own) };
  if (places.filesRoots.some((root) => absolute !== root && isInside(root, absolute))) {
    // Another company's sub-folder: answered as a missing one, whether it exists or not.
    throw new ConnectorError(`${use.field}: the ${use.noun} ${absolute} does not exist`, 'not_found');
  }
  throw refuse(`this server does not let companies read ${absolute}`);
}

/**
 * Where a place really is, links followed, once it is known to stay inside its allowed folder
 * (and out of the rest of the data directory). Called at every use: a link may have changed since
 * the last. The file system's own failures (a missing folder) are thrown as they are.
 */
export async function realPlace(
  places: Places,
  companyId: string,
  place: CompanyPlace,
  use: PlaceUse,
  target = place.path,
): Promise<string> {
  const real = await realpath(target);
  const within = await realpath(place.within).catch(() => place.within);
  const dataDir = places.dataDir ? await realpath(places.dataDir).catch(() => path.resolve(places.dataDir!)) : undefined;
  const ownRoot = places.dataDir
    ? await realpath(companyRoot(places.dataDir, companyId)).catch(() => companyRoot(places.dataDir!, companyId))
    : undefined;
  const intoDataDir = dataDir !== undefined && isInside(dataDir, real) && !(ownRoot !== undefined && isInside(ownRoot, real));
  if (!isInside(within, real) || intoDataDir) {
    const what = target === place.path ? place.shown : `${place.shown} (${path.relative(place.path, target)})`;
    throw refusal(places, companyId, use, `${what} leads through a symbolic link out of the folders this company may read`);
  }
  return real;
}

/** The local path a git connection's URL names; undefined for a remote one (http, https). */
function repositoryPathOf(url: string): string | undefined {
  if (/^https?:\/\//i.test(url)) return undefined;
  if (/^file:\/\//i.test(url)) {
    try {
      return fileURLToPath(url);
    } catch {
      return url;
    }
  }
  return url;
}

/** A git URL as the place it names: `file://` is read as its path, so that it meets the same rules as a path. */
export function repositoryPlace(places: Places, companyId: string, url: string): CompanyPlace | undefined {
  const local = repositoryPathOf(url.trim());
  if (local === undefined) return undefined;
  if (/^(ssh:\/\/|git@|git:\/\/)/i.test(local)) {
    throw new ConnectorError("settings.url: ssh and git:// addresses are not supported; give the repository's https URL", 'invalid');
  }
  if (/^file:\/\//i.test(url.trim()) && local === url.trim()) {
    throw refusal(
      places,
      companySegment(companyId),
      REPOSITORY_FOLDER,
      `${JSON.stringify(url.trim())} is not a file:// URL of this machine`,
    );
  }
  return companyPlace(places, companyId, local, REPOSITORY_FOLDER);
}

/**
 * The refusal of a files or git connection's local path, before anything is stored: its words,
 * and where it leads when it exists. Other types have no local path: nothing to check.
 */
export async function checkConnectionPlaces(context: ConnectorContext, config: ConnectionConfig): Promise<void> {
  if (config.type !== 'files' && config.type !== 'git') return;
  const { settings } = checkedSettings(config);
  const use = config.type === 'files' ? FILES_FOLDER : REPOSITORY_FOLDER;
  const written = String(config.type === 'files' ? settings.path : settings.url);
  const place =
    config.type === 'files' ? companyPlace(context, config.companyId, written, use) : repositoryPlace(context, config.companyId, written);
  if (!place) return;
  try {
    await realPlace(context, config.companyId, place, use);
  } catch (error) {
    // A place that does not exist yet may be made later; only one that leads elsewhere is refused now.
    if (error instanceof ConnectorError) throw error;
  }
}
