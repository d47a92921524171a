import { createReadStream, constants as fsConstants, type Dirent } from 'node:fs';
import { access, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { companyPlace, FILES_FOLDER, isInside, realPlace, type Places } from './company-places';
import { DEFAULT_TABULAR_LIMITS, fileTableSource, tabularFormatOf } from './tabular';
import type { FileStorage, FileTableSource, TabularFile, TabularLimits } from './tabular';
import { checkedSettings, ConnectorError, type ConnectionConfig, type Endpoint } from './types';

/**
 * The `files` type: CSV and Parquet files in a folder on the server and its sub-folders. Each
 * file is an endpoint whose id is its path in the folder (`sales/2024/q1.csv`); the connection is
 * a FileTableSource (tabular/), so rules query the files with SQL.
 *
 * The folder is one the company may read (company-places.ts): relative to its data folder, or in
 * its own sub-folder of a granted root; where it leads after links is checked at every listing
 * and every read. What it reaches stays inside the folder: an endpoint id that climbs out
 * (`../x.csv`) is refused, and a symbolic link whose target lies outside the folder is neither
 * listed nor read.
 */

export interface FilesLimits extends TabularLimits {
  /** Files listed at most; a larger folder is listed up to this many. */
  maxFiles: number;
  /** Sub-folders descended into at most (a file at `a/b/c/d/e/x.csv` is 5 deep). */
  maxDepth: number;
}

export const DEFAULT_FILES_LIMITS: FilesLimits = { ...DEFAULT_TABULAR_LIMITS, maxFiles: 10_000, maxDepth: 5 };

export interface FilesOptions {
  /** The data directory and the granted roots (FILES_ROOTS): where the company's folders may be. */
  places: Places;
  limits?: Partial<FilesLimits>;
}

export function openFilesConnector(config: ConnectionConfig, options: FilesOptions): FileTableSource {
  const limits = { ...DEFAULT_FILES_LIMITS, ...options.limits };
  // The folder's words are checked now, so that a refused one fails before anything is read.
  const place = companyPlace(options.places, config.companyId, folderSetting(config), FILES_FOLDER);
  return fileTableSource(
    new FolderStorage(place.shown, () => realPlace(options.places, config.companyId, place, FILES_FOLDER), limits),
    limits,
  );
}

function folderSetting(config: ConnectionConfig): string {
  return String(checkedSettings(config, 'files').settings.path);
}

class FolderStorage implements FileStorage {
  constructor(
    /** How messages name the folder: as the company wrote it. */
    private readonly folder: string,
    /** The folder's real path, once it is known to lead nowhere the company may not read. */
    private readonly confinedRoot: () => Promise<string>,
    private readonly limits: FilesLimits,
  ) {}

  async test() {
    const started = performance.now();
    const count = (await this.endpoints()).length;
    return { latencyMs: Math.round(performance.now() - started), detail: `${count} CSV and Parquet file${count === 1 ? '' : 's'}` };
  }

  async endpoints(): Promise<Endpoint[]> {
    const root = await this.readableRoot();
    const found: Endpoint[] = [];
    const visited = new Set<string>([root]);
    const walk = async (directory: string, relative: string, depth: number): Promise<void> => {
      let entries: Dirent[];
      try {
        entries = await readdir(directory, { withFileTypes: true });
      } catch {
        // A sub-folder the server may not read is left out rather than failing the whole folder.
        return;
      }
      entries.sort((a, b) => a.name.localeCompare(b.name));
      for (const entry of entries) {
        if (found.length >= this.limits.maxFiles) return;
        const full = path.join(directory, entry.name);
        const id = relative ? `${relative}/${entry.name}` : entry.name;
        const target = entry.isSymbolicLink()
          ? await this.insideTarget(root, full)
          : { path: full, isDirectory: entry.isDirectory(), isFile: entry.isFile() };
        if (!target) continue;
        if (target.isDirectory) {
          if (depth >= this.limits.maxDepth || visited.has(target.path)) continue;
          visited.add(target.path);
          await walk(full, id, depth + 1);
        } else if (target.isFile) {
          const format = tabularFormatOf(entry.name);
          if (!format) continue;
          const size = (await stat(full)).size;
          found.push({ id, name: entry.name, kind: 'file', format, size, ...(relative ? { group: relative } : {}) });
        }
      }
    };
    await walk(root, '', 0);
    return found;
  }

  async locate(endpoint: string): Promise<TabularFile> {
    const root = await this.readableRoot();
    const format = tabularFormatOf(endpoint);
    const segments = endpoint.split('/');
    if (
      !format ||
      endpoint.includes('\0') ||
      path.isAbsolute(endpoint) ||
      segments.some((part) => part === '' || part === '.' || part === '..')
    ) {
      throw new ConnectorError(`"${endpoint}" is not a CSV or Parquet file of the folder ${this.folder}`, 'invalid');
    }
    const full = path.join(root, ...segments);
    let real: string;
    try {
      real = await realpath(full);
    } catch (error) {
      throw fileSystemError(error, `"${endpoint}" in the folder ${this.folder}`);
    }
    if (!isInside(root, real)) throw new ConnectorError(`"${endpoint}" leads outside the folder ${this.folder}`, 'invalid');
    const info = await stat(real);
    if (!info.isFile()) throw new ConnectorError(`"${endpoint}" in the folder ${this.folder} is not a file`, 'invalid');
    return {
      endpoint,
      format,
      size: info.size,
      version: `${info.size}:${info.mtimeMs}`,
      openStream: () => openFileStream(real, endpoint),
      openRandomAccess: async () => (await import('hyparquet')).asyncBufferFromFile(real),
    };
  }

  async close(): Promise<void> {}

  /** The folder's real path, once it is known to be a folder the company and the server may read. */
  private async readableRoot(): Promise<string> {
    try {
      const real = await this.confinedRoot();
      if (!(await stat(real)).isDirectory()) throw new ConnectorError(`${this.folder} is not a folder`, 'invalid');
      await access(real, fsConstants.R_OK | fsConstants.X_OK);
      return real;
    } catch (error) {
      throw fileSystemError(error, `the folder ${this.folder}`);
    }
  }

  /** A link's target when it stays inside the folder; undefined when it leaves it or leads nowhere. */
  private async insideTarget(root: string, link: string): Promise<{ path: string; isDirectory: boolean; isFile: boolean } | undefined> {
    try {
      const target = await realpath(link);
      if (!isInside(root, target)) return undefined;
      const info = await stat(target);
      return { path: target, isDirectory: info.isDirectory(), isFile: info.isFile() };
    } catch {
      return undefined;
    }
  }
}

function openFileStream(file: string, endpoint: string) {
  return new Promise<ReturnType<typeof createReadStream>>((resolve, reject) => {
    const stream = createReadStream(file);
    stream.once('open', () => resolve(stream));
    stream.once('error', (error) => reject(fileSystemError(error, `"${endpoint}"`)));
  });
}

/** The file system's refusal in words naming what was asked for. */
function fileSystemError(error: unknown, what: string): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new ConnectorError(`${capitalise(what)} does not exist`, 'not_found');
  if (code === 'ENOTDIR') return new ConnectorError(`${capitalise(what)} is not a folder`, 'invalid');
  if (code === 'EACCES' || code === 'EPERM') return new ConnectorError(`The server may not read ${what} (permission denied)`, 'auth');
  return new ConnectorError(`${capitalise(what)} could not be read: ${error instanceof Error ? error.message : String(error)}`, 'failed');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
