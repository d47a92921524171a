import { ConnectorError } from '../types';
import { describe, type Location } from './location';

/** The words of failures: a ref the repository lacks, isomorphic-git's and the network's errors, a remote's own words. */

/** The most of a remote's own words (an HTTP status line, an error of its own) a message carries. */
const REMOTE_WORDS_MAX = 200;

/** A remote's words as a message may carry them: one printable line, at most REMOTE_WORDS_MAX characters. */
export function remoteWords(text: string | undefined): string {
  const line = (text ?? '')
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > REMOTE_WORDS_MAX ? `${line.slice(0, REMOTE_WORDS_MAX - 1)}…` : line;
}

export function missingRef(ref: string, location: Location): ConnectorError {
  return new ConnectorError(`"${ref}" is not a branch, tag or commit of ${describe(location)}`, 'not_found');
}

/** isomorphic-git's and the network's failures, in words naming the repository, never more than a line of what a remote said. */
export function gitError(error: unknown, location: Location): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const where = describe(location);
  const failure = error as { code?: string; message?: string; data?: { statusCode?: number; statusMessage?: string } };
  switch (failure.code) {
    case 'HttpError': {
      const status = failure.data?.statusCode ?? 0;
      if (status === 401 || status === 403)
        return new ConnectorError(`git: ${where} did not accept the credentials (HTTP ${status})`, 'auth');
      if (status === 404) return new ConnectorError(`git: there is no repository at ${where} (HTTP 404)`, 'not_found');
      return new ConnectorError(`git: ${where} answered HTTP ${status} ${remoteWords(failure.data?.statusMessage)}`.trim(), 'failed');
    }
    case 'NotFoundError':
      return new ConnectorError(remoteWords(failure.message) || 'Not found', 'not_found');
    case 'SmartHttpError':
      return new ConnectorError(`git: ${where} does not answer as a git server`, 'failed');
    default:
      return new ConnectorError(`git: ${remoteWords(messageOf(error))}`, 'failed');
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
