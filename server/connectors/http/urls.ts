import { ConnectorError } from '../types';

/** The URLs a service is called at. */

/**
 * The base URL of a service that will be sent a secret: https, or http only to this machine (a
 * service under test, or a tunnel), so that a token never crosses a network in the clear.
 */
export function secureBaseUrl(value: unknown, field: string): URL {
  let url: URL;
  try {
    url = new URL(String(value ?? '').trim());
  } catch {
    throw new ConnectorError(`settings.${field}: must be an https URL`, 'invalid');
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) || url.hostname.startsWith('127.');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConnectorError(`settings.${field}: must be an https URL`, 'invalid');
  }
  return url;
}

/** `base` + path segments (each escaped) + query: the base's own path is kept. */
export function serviceUrl(base: URL, path: string, query: Record<string, string | number | undefined> = {}): URL {
  const url = new URL(base.href.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
  return url;
}
