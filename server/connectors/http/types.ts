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
  /** Tries in all for an answer that says "later" (429, 5xx); 3 unless told. */
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
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  headers?: Record<string, string>;
  /** Sent as it is (a string), or as JSON (anything else). */
  body?: unknown;
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
