import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Files of the server that are read or started by path while it runs: its migrations and the
 * scripts of its worker threads. A module finding them relative to itself would break once
 * compiled, when every module is bundled into one file at another depth. This module sits at
 * the top of server/, and the build (scripts/build-server.mjs) bundles it into
 * dist/server/<entry>.mjs and puts those files under dist/server/ at the same relative paths,
 * so one relative path names the file both from the sources and from the build.
 */
const serverRoot = path.dirname(fileURLToPath(import.meta.url));

/** `relative` is as under server/, e.g. `db/migrations`. */
export function serverFilePath(relative: string): string {
  return path.join(serverRoot, relative);
}

export function serverFileUrl(relative: string): URL {
  return pathToFileURL(serverFilePath(relative));
}
