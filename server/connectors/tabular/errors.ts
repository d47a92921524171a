import { formatSeconds } from '../http';
import { ConnectorError } from '../types';
import type { TabularFile, TabularLimits } from './types';

/** The messages of files that cannot be read or loaded, and of statements about them. */

export function tooManyRows(file: TabularFile, limits: TabularLimits): ConnectorError {
  return new ConnectorError(
    `"${file.endpoint}" has more than ${limits.maxRows.toLocaleString('en-US')} rows, the most a file may have to be queried`,
    'invalid',
  );
}

/** A statement or read of the files, for the messages of its limit. */
export const lateQuery = (timeoutMs: number) =>
  new ConnectorError(`The query did not finish within ${formatSeconds(timeoutMs)}`, 'timeout');

export function rethrowAsQueryError(error: unknown): never {
  throw queryError(error);
}

/** PostgreSQL's own words, with the kind a caller acts on. */
function queryError(error: unknown): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const code = (error as { code?: string }).code;
  const kind = code === '25006' ? 'read_only' : code === '42P01' ? 'not_found' : code === '57014' ? 'timeout' : 'failed';
  return new ConnectorError(messageOf(error), kind);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
