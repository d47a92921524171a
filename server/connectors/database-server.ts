import type { CheckedTarget, Reach } from '../reach/reach';
import { ConnectorError, type ConnectionConfig } from './types';

/** Where a database server connection (PostgreSQL, MySQL) points, read from its declared settings. */
export interface DatabaseServerSettings {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string | undefined;
  /** `ssl` 'disable' → false; 'require' → encrypted, any certificate; 'verify-full' → certificate and host name verified. */
  tls: false | { rejectUnauthorized: boolean };
}

/**
 * The settings shared by the database server types of common/connections.ts. Settings arrive
 * checked by their declarations; a required one missing here (a config built by hand) is a
 * ConnectorError naming it rather than a driver's puzzling default.
 */
export function databaseServerSettings(config: ConnectionConfig, defaultPort: number): DatabaseServerSettings {
  const text = (key: string): string => {
    const value = config.settings[key];
    if (value === undefined || value === null || String(value).trim() === '')
      throw new ConnectorError(`settings.${key}: is required`, 'invalid');
    return String(value).trim();
  };
  const portSetting = config.settings.port;
  const port = portSetting === undefined || portSetting === null || portSetting === '' ? defaultPort : Number(portSetting);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new ConnectorError('settings.port: must be a whole number from 1 to 65535', 'invalid');
  const ssl = String(config.settings.ssl ?? 'disable');
  if (!['disable', 'require', 'verify-full'].includes(ssl))
    throw new ConnectorError('settings.ssl: must be one of disable, require, verify-full', 'invalid');
  return {
    host: text('host'),
    port,
    database: text('database'),
    user: text('user'),
    password: config.secrets.password || undefined,
    tls: ssl === 'disable' ? false : { rejectUnauthorized: ssl === 'verify-full' },
  };
}

/**
 * The database server's host, checked by the reach guard on first use: a refusal is kept for the
 * connector's life, while a failed lookup is tried again on the next use.
 */
export function checkedServer(config: ConnectionConfig, defaultPort: number, reach: Reach): () => Promise<CheckedTarget> {
  let checked: Promise<CheckedTarget> | undefined;
  return () => {
    const { host, port } = databaseServerSettings(config, defaultPort);
    checked ??= reach.check({ host, port }).catch((error: unknown) => {
      if (!(error instanceof ConnectorError && error.kind === 'refused')) checked = undefined;
      throw error;
    });
    return checked;
  };
}
