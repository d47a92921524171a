import type { ConnectionType } from '../../common/connections';
import type { Reach } from '../reach/reach';
import { ConnectorError, type ConnectionConfig, type Connector } from './types';

/** What connectors may need of the server: what companies may reach, and where their local things live. */
export interface ConnectorContext {
  /** The server's data directory; undefined keeps embedded databases in memory (tests). */
  dataDir?: string;
  /** The guard every dial to a host a company configured goes through (server/reach). */
  reach: Reach;
  /** Folders the operator grants companies (FILES_ROOTS): each company reaches its own sub-folder of each. */
  filesRoots: readonly string[];
  /** Embedded databases: how many a company may have, how long one stays open unused, and the shared buffers (MB) each holds open. */
  embedded: { maxPerCompany: number; idleMs: number; buffersMb?: number };
}

export type ConnectorFactory = (config: ConnectionConfig, context: ConnectorContext) => Connector;

/** Opens the connector of a connection's type (server/connectors/index.ts lists them). */
export class ConnectorRegistry {
  constructor(
    private readonly factories: Readonly<Record<ConnectionType, ConnectorFactory>>,
    readonly context: ConnectorContext,
  ) {}

  open(config: ConnectionConfig): Connector {
    const factory = this.factories[config.type];
    if (!factory) throw new ConnectorError(`There is no connector for connections of type ${config.type}`, 'invalid');
    return factory(config, this.context);
  }

  /** Opens a connector for one piece of work and closes it afterwards, whatever happens. */
  async use<T>(config: ConnectionConfig, work: (connector: Connector) => Promise<T>): Promise<T> {
    const connector = this.open(config);
    try {
      return await work(connector);
    } finally {
      await connector.close().catch(() => {});
    }
  }
}

/** Rejects with a ConnectorError of kind 'timeout' when `work` takes longer than `ms`. */
export function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectorError(`${what} took longer than ${Math.round(ms / 1000)} s`, 'timeout')), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
