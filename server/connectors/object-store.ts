import type { Readable } from 'node:stream';
import { DEFAULT_TABULAR_LIMITS, fileTableSource, tabularFormatOf } from './tabular';
import type { FileStorage, FileTableSource, TabularFile, TabularLimits } from './tabular';
import type { HttpOptions } from './http';
import { ConnectorError, type Endpoint, type TestResult } from './types';

/**
 * CSV and Parquet objects of a cloud store (an S3 bucket, a Google Cloud Storage bucket, an Azure
 * Blob container) under an optional prefix, as a FileTableSource: each store's connector brings
 * a client for its own API (list a page, describe an object, read it or a byte range of it), and
 * this module does the rest alike for all of them — the test, the endpoints, keeping reads inside
 * the prefix, and handing files to tabular/, which loads them for SQL.
 */

/** Where the objects are, as messages name it: `bucket "data"`, `container "exports"`. */
export interface StorePlace {
  /** 'bucket' or 'container'. */
  noun: string;
  name: string;
  /** What the store calls one file: 'object', 'blob'. */
  item: string;
  /** Only keys that start with it; '' for the whole bucket. */
  prefix: string;
}

export interface ListedObject {
  key: string;
  size: number;
}

export interface ObjectPage {
  objects: ListedObject[];
  /** The next page's token, when there is one. */
  nextToken: string | undefined;
}

export interface ObjectHead {
  size: number;
  /** Changes whenever the content may have (a generation, an ETag): the cache key of the loaded table. */
  version: string;
}

export interface ObjectRead {
  body: Readable;
  /** The store answered only the range asked for (206); otherwise the body is the whole object. */
  partial: boolean;
}

/** One store's API, as the storage below needs it. Failures are ConnectorErrors in the store's own words. */
export interface ObjectStoreClient {
  readonly place: StorePlace;
  /** The most keys one listing page may answer. */
  readonly pageSize: number;
  /** One page of the keys under the prefix, at most `maxKeys`. */
  listPage(maxKeys: number, token?: string): Promise<ObjectPage>;
  head(key: string): Promise<ObjectHead>;
  /** The object at `head.version`, or the part of it in `range` ([start, end), bytes). */
  read(key: string, head: ObjectHead, range?: readonly [number, number]): Promise<ObjectRead>;
}

/** How a store reached through the shared HTTP client is opened (Google Cloud Storage, Azure Blob). */
export interface HttpStoreOptions {
  limits?: Partial<ObjectStoreLimits>;
  http: HttpOptions;
}

export interface ObjectStoreLimits extends TabularLimits {
  /** Objects listed at most. */
  maxFiles: number;
}

export const DEFAULT_OBJECT_STORE_LIMITS: ObjectStoreLimits = { ...DEFAULT_TABULAR_LIMITS, maxFiles: 10_000 };

/** The store's CSV and Parquet objects as tables (tabular/). */
export function objectStoreTables(client: ObjectStoreClient, limits: Partial<ObjectStoreLimits> = {}): FileTableSource {
  const all = { ...DEFAULT_OBJECT_STORE_LIMITS, ...limits };
  return fileTableSource(new ObjectStorage(client, all), all);
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

class ObjectStorage implements FileStorage {
  constructor(
    private readonly client: ObjectStoreClient,
    private readonly limits: ObjectStoreLimits,
  ) {}

  /** Lists one key: the credentials, the place and the network are all proven by it, and it costs the store nothing. */
  async test(): Promise<TestResult> {
    const started = performance.now();
    const page = await this.client.listPage(1);
    const { noun, name, item, prefix } = this.client.place;
    const under = prefix ? ` under "${prefix}"` : '';
    return {
      latencyMs: Math.round(performance.now() - started),
      detail: `${capitalised(noun)} "${name}": the first page${under} listed ${plural(page.objects.length, item)}`,
    };
  }

  async endpoints(): Promise<Endpoint[]> {
    const found: Endpoint[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.listPage(this.client.pageSize, token);
      for (const object of page.objects) {
        const format = tabularFormatOf(object.key);
        if (!format) continue;
        const slash = object.key.lastIndexOf('/');
        found.push({
          id: object.key,
          name: object.key.slice(slash + 1),
          kind: 'file',
          format,
          size: object.size,
          ...(slash > 0 ? { group: object.key.slice(0, slash) } : {}),
        });
        if (found.length >= this.limits.maxFiles) return found;
      }
      token = page.nextToken;
    } while (token);
    return found;
  }

  async locate(endpoint: string): Promise<TabularFile> {
    const { noun, name, item, prefix } = this.client.place;
    const format = tabularFormatOf(endpoint);
    if (!format || !endpoint.startsWith(prefix) || endpoint.split('/').some((part) => part === '.' || part === '..')) {
      throw new ConnectorError(
        `"${endpoint}" is not a CSV or Parquet ${item} of ${noun} "${name}"${prefix ? ` under "${prefix}"` : ''}`,
        'invalid',
      );
    }
    const head = await this.client.head(endpoint);
    return {
      endpoint,
      format,
      size: head.size,
      version: head.version,
      openStream: async () => (await this.client.read(endpoint, head)).body,
      openRandomAccess: async () => ({
        byteLength: head.size,
        slice: async (start: number, end?: number) => {
          const stop = end ?? head.size;
          if (stop <= start) return new ArrayBuffer(0);
          const answer = await this.client.read(endpoint, head, [start, stop]);
          const bytes = await readBytes(answer.body);
          // A store that ignores the range sends the whole object.
          const part = answer.partial ? bytes : bytes.subarray(start, stop);
          return part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength) as ArrayBuffer;
        },
      }),
    };
  }

  async close(): Promise<void> {}
}

async function readBytes(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A key prefix as stores take it: no leading slash. */
export function normalisedPrefix(value: unknown): string {
  return String(value ?? '')
    .trim()
    .replace(/^\/+/, '');
}
