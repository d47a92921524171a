import type { Readable } from 'node:stream';
import type { Reach } from '../../reach/reach';
import type { ConnectorError } from '../types';

/** What a call to a service is given and answers, and how long it may take. */

/** A connection test answers within 15 s, so no single call may take longer. */
export const HTTP_TIMEOUT_MS = 15_000;

export interface HttpOptions {
  /** The guard every connection goes through. */
  reach: Reach;
  /** Per try; 15 s unless told. */
  timeoutMs?: number;
  /**
   * Tries in all for an answer that says "later" (429, 5xx); 3 unless told. A call that may be
   * repeated is tried again on either; any other only on a 429 (see `HttpRequest.idempotent`).
   */
  maxTries?: number;
  /** The first wait between tries when the service names none; it doubles each time. */
  retryBaseDelayMs?: number;
  /** A service that asks to wait longer than this is not waited for: its answer is the error. */
  maxRetryWaitMs?: number;
}

/** What a connector knows of the service it calls. */
export interface HttpService {
  /** Named in every message: "Databricks". */
  name: string;
  /**
   * The service's own words for a failed answer, read from its body (or, for an answer without
   * one such as HEAD's, its headers); undefined when it says nothing useful.
   */
  errorText(body: string, headers: Headers): string | undefined;
  /** What kind of failure an answer is, where the status alone misleads (a token endpoint's 400 is a refused credential). */
  errorKind?(status: number, body: string): ConnectorError['kind'] | undefined;
}

export interface HttpRequest {
  method?: 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  headers?: Record<string, string>;
  /** Sent as it is (a string), or as JSON (anything else). */
  body?: unknown;
  /**
   * The service does the same thing however often this POST or PATCH reaches it, so a 5xx or a
   * connection closed under it may be sent again: a read that happens to be a POST (Slack's
   * conversations.list, a search), a token exchange, or a request carrying an idempotency token
   * in its body (Databricks' run-now). GET, HEAD, OPTIONS, PUT and DELETE are so by HTTP's
   * definition, and a request with an `Idempotency-Key` header is taken as so too. Any other POST
   * or PATCH is sent once more only after a 429, which a service answers before acting.
   */
  idempotent?: boolean;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** A successful answer whose body is read as it arrives (a file being downloaded). */
export interface HttpStream {
  status: number;
  headers: Headers;
  body: Readable;
}
