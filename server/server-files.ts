import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Files of the server read by path while it runs (its package.json, for instance). They are found
 * from this one module at the top of server/, not from each module's own place, so that one
 * relative path names them wherever the module that asks sits.
 */
const serverRoot = path.dirname(fileURLToPath(import.meta.url));

/** `relative` is as under server/, e.g. `db/migrations`. */
export function serverFilePath(relative: string): string {
  return path.join(serverRoot, relative);
}
