import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectorRegistry } from '../../../server/connectors';
import type { ObjectStoreLimits } from '../../../server/connectors/object-store';
import type { FileTableSource } from '../../../server/connectors/tabular';
import type { ConnectionConfig } from '../../../server/connectors/types';
import { closedPort, type LocalServer, type ReceivedRequest } from './fixtures-remote/local-server';
import { connectorFailure as failure, testConnectorContext } from './test-context';

/**
 * What every object-store connector (S3, Google Cloud Storage, Azure Blob) must do alike, checked
 * against a fake of each store on this machine: testing, listing page after page, reading CSV and
 * Parquet files for SQL, reading a file again only once it has changed, keeping to the prefix,
 * refusing a file too big before downloading it, and reporting failures in the store's own words.
 */

/**
 * The files of the bucket or container "data", whose connections look under "exports/". Names
 * with spaces, parentheses and plus signs, in folders and out of them, are where escaping a name
 * into a URL, a signature or a page token goes wrong; the customers file has a byte-order mark,
 * CRLF line ends and a quoted line break, which a CSV reader has to see through.
 */
export const OBJECTS: Readonly<Record<string, string | Uint8Array>> = {
  'exports/customers.csv': '\uFEFFid,name,joined\r\n1,"Smith, Anna",2024-01-02\r\n2,"Line\r\nbreak",\r\n3,Chloé,2024-03-04\r\n',
  'exports/nested/deeper/events.csv': 'at\n2024-01-01T10:00:00Z\n',
  'exports/notes.txt': 'not data',
  'exports/products.parquet': new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: 'sku', data: [1, 2, 3], type: 'INT32', nullable: false },
        { name: 'title', data: ['Pen', 'Ink', null], type: 'STRING' },
      ],
    }),
  ),
  'exports/q1 report (final)+draft.csv': 'region,amount\nnorth,10\nsouth,32\n',
  'exports/q1 report/sales+returns.csv': 'region,amount\nnorth,10\nsouth,32\n',
  'exports/readme.md': '# not data',
  'private/salaries.csv': 'who,amount\nboss,1\n',
};

/** What a request to a store's fake asked for; 'sign-in' is a credential exchange, not a call to the store itself. */
export type ObjectStoreRequestKind = 'sign-in' | 'list' | 'describe' | 'read';

/** A store's fake, running. */
export interface ObjectStoreFake {
  server: LocalServer;
  /** Stores a file in "data", replacing one of the same name (and so changing its version). */
  put(name: string, body: string | Uint8Array): void;
  /** The most names one listing page holds; undefined gives the store's own maximum back. */
  limitPages(limit: number | undefined): void;
}

export interface ObjectStoreContract {
  /** Starts the fake, empty: the suite stores OBJECTS in it. */
  start(): Promise<ObjectStoreFake>;
  kindOf(request: ReceivedRequest): ObjectStoreRequestKind;
  /** A connection to "data" under "exports/" with credentials the fake accepts, `settings` laid over its own. */
  config(settings?: Record<string, unknown>): ConnectionConfig;
  /** The same connection, with a secret the fake does not know. */
  configWithWrongSecret(): ConnectionConfig;
  /** The store's connector; one that tries again after a 503 waits milliseconds, not the production back-off. */
  open(config: ConnectionConfig, limits?: Partial<ObjectStoreLimits>): FileTableSource;
  /** What the store calls its place (also the name of the setting that names it) and a file in it. */
  noun: 'bucket' | 'container';
  item: 'object' | 'blob';
  /** The listing that tests a connection, as the store's API spells it: the first page, one name long. */
  firstListing: { path: string; query: Record<string, string> };
  /** The query parameter a listing sends the fake's page token back in, and how the fake encoded the last name of the page before in it. */
  pageToken: { param: string; encoding?: 'base64' | 'base64url' };
  /** The header a read asks for a byte range in. */
  rangeHeader: 'range' | 'x-ms-range';
  /** The store's errors, whole. */
  messages: {
    wrongSecret: string;
    /** For the place "nope". */
    missingPlace: string;
    /** For "exports/missing.csv". */
    missingObject: string;
  };
  /** For a store whose connector tries a 503 again: how to make the fake answer the next listings with 503s, and the error the last one becomes. */
  retries?: { interruptListing(times: number): void; message: string };
}

const QUERY = { timeoutMs: 10_000, readOnly: true };

function sizeOf(name: string): number {
  const body = OBJECTS[name]!;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.length;
}

/**
 * The contract's tests for one store, named as the store's messages name it ("S3"). The fake is
 * started, and filled, by hooks at the scope of the call, so that the tests a store's file adds
 * after it run against the same fake and the same files.
 */
export function describeObjectStore(service: string, contract: ObjectStoreContract): void {
  const { noun, item, messages, retries, kindOf } = contract;
  let fake: ObjectStoreFake;
  const requests = () => fake.server.requests;
  const open = (settings?: Record<string, unknown>, limits?: Partial<ObjectStoreLimits>) =>
    contract.open(contract.config(settings), limits);

  beforeAll(async () => {
    fake = await contract.start();
    for (const [name, body] of Object.entries(OBJECTS)) fake.put(name, body);
  });

  afterAll(async () => {
    await fake?.server.close();
  });

  /** The kinds of the requests since `before`, a sign-in aside: what the store itself was asked. */
  const storeCallsSince = (before: number) =>
    requests()
      .slice(before)
      .map(kindOf)
      .filter((kind) => kind !== 'sign-in');

  /** The name a listing asked to go on after, read back from the page token; undefined for a first page. */
  const listedAfter = (request: ReceivedRequest) => {
    const token = request.query.get(contract.pageToken.param);
    if (token === null) return undefined;
    return contract.pageToken.encoding ? Buffer.from(token, contract.pageToken.encoding).toString() : token;
  };

  describe(`${service} as an object store`, () => {
    describe('testing', () => {
      it(`tests by listing one ${item} under the prefix`, async () => {
        const before = requests().length;
        const connector = open();
        const result = await connector.test();
        expect(result.detail).toBe(
          `${noun.charAt(0).toUpperCase()}${noun.slice(1)} "data": the first page under "exports/" listed 1 ${item}`,
        );
        expect(result.latencyMs).toBeGreaterThanOrEqual(0);
        expect(storeCallsSince(before)).toEqual(['list']);
        const listing = requests()
          .slice(before)
          .find((request) => kindOf(request) === 'list')!;
        expect(listing.path).toBe(contract.firstListing.path);
        expect(Object.fromEntries(listing.query)).toEqual(contract.firstListing.query);
        await connector.close();
      });

      it("reports a wrong secret in the store's words, as an auth failure", async () => {
        const error = await failure(contract.open(contract.configWithWrongSecret()).test());
        expect(error.kind).toBe('auth');
        expect(error.message).toBe(messages.wrongSecret);
      });

      it(`says a missing ${noun} is not found, when testing and when listing`, async () => {
        const connector = open({ [noun]: 'nope' });
        for (const work of [() => connector.test(), () => connector.endpoints()]) {
          const error = await failure(work());
          expect(error.kind).toBe('not_found');
          expect(error.message).toBe(messages.missingPlace);
        }
      });

      it('says when the service cannot be reached', async () => {
        const port = await closedPort();
        const error = await failure(open({ endpoint: `http://127.0.0.1:${port}` }).test());
        expect(error.kind).toBe('unreachable');
        expect(error.message).toBe(`${service} could not reach the service at 127.0.0.1:${port}`);
      });

      if (retries) {
        it('tries again after a 503, and reports the 503 when it persists', async () => {
          retries.interruptListing(1);
          expect((await open().test()).detail).toContain(`listed 1 ${item}`);

          retries.interruptListing(3);
          const before = requests().length;
          const error = await failure(open().test());
          expect(error.kind).toBe('failed');
          expect(error.message).toBe(retries.message);
          expect(storeCallsSince(before)).toEqual(['list', 'list', 'list']);
        });
      }
    });

    describe('listing', () => {
      it(`lists the CSV and Parquet ${item}s under the prefix, page after page`, async () => {
        fake.limitPages(2);
        const before = requests().length;
        try {
          const endpoints = await open().endpoints();
          expect(endpoints).toEqual([
            {
              id: 'exports/customers.csv',
              name: 'customers.csv',
              kind: 'file',
              format: 'csv',
              size: sizeOf('exports/customers.csv'),
              group: 'exports',
            },
            {
              id: 'exports/nested/deeper/events.csv',
              name: 'events.csv',
              kind: 'file',
              format: 'csv',
              size: sizeOf('exports/nested/deeper/events.csv'),
              group: 'exports/nested/deeper',
            },
            {
              id: 'exports/products.parquet',
              name: 'products.parquet',
              kind: 'file',
              format: 'parquet',
              size: sizeOf('exports/products.parquet'),
              group: 'exports',
            },
            {
              id: 'exports/q1 report (final)+draft.csv',
              name: 'q1 report (final)+draft.csv',
              kind: 'file',
              format: 'csv',
              size: sizeOf('exports/q1 report (final)+draft.csv'),
              group: 'exports',
            },
            {
              id: 'exports/q1 report/sales+returns.csv',
              name: 'sales+returns.csv',
              kind: 'file',
              format: 'csv',
              size: sizeOf('exports/q1 report/sales+returns.csv'),
              group: 'exports/q1 report',
            },
          ]);
          // Seven names under the prefix, two a page: each page goes on after the last name of the one before.
          const listings = requests()
            .slice(before)
            .filter((request) => kindOf(request) !== 'sign-in');
          expect(listings.map((request) => kindOf(request))).toEqual(['list', 'list', 'list', 'list']);
          expect(listings.map((request) => listedAfter(request))).toEqual([
            undefined,
            'exports/nested/deeper/events.csv',
            'exports/products.parquet',
            'exports/q1 report/sales+returns.csv',
          ]);
        } finally {
          fake.limitPages(undefined);
        }
      });

      it("opens through the server's connector registry", async () => {
        const ids = await createConnectorRegistry(testConnectorContext()).use(contract.config({ prefix: '' }), async (connector) =>
          (await connector.endpoints()).map((endpoint) => endpoint.id),
        );
        expect(ids).toContain('private/salaries.csv');
      });
    });

    describe('columns and queries', () => {
      it(`reads a CSV ${item} streamed, and a Parquet ${item} by byte ranges`, async () => {
        const connector = open();
        try {
          expect(await connector.columns('exports/customers.csv')).toEqual([
            { name: 'id', dataType: 'integer', nullable: false, position: 1 },
            { name: 'name', dataType: 'text', nullable: false, position: 2 },
            { name: 'joined', dataType: 'date', nullable: true, position: 3 },
          ]);
          const before = requests().length;
          expect(await connector.columns('exports/products.parquet')).toEqual([
            { name: 'sku', dataType: 'integer', nullable: false, position: 1 },
            { name: 'title', dataType: 'text', nullable: true, position: 2 },
          ]);
          const ranged = requests()
            .slice(before)
            .filter((request) => kindOf(request) === 'read' && String(request.headers[contract.rangeHeader] ?? '').startsWith('bytes='));
          expect(ranged.length).toBeGreaterThan(0);
        } finally {
          await connector.close();
        }
      });

      it(`answers SQL about ${item}s, names with spaces and signs included`, async () => {
        const connector = open();
        try {
          for (const name of ['exports/q1 report (final)+draft.csv', 'exports/q1 report/sales+returns.csv']) {
            const [total] = await connector.query<{ total: number }>(
              `select sum(amount)::int as total from ${connector.tableName(name)}`,
              [],
              QUERY,
            );
            expect(total!.total).toBe(42);
          }
          const names = await connector.query<{ name: string }>(
            'select name from "exports/customers.csv" where joined is not null order by id',
            [],
            QUERY,
          );
          expect(names).toEqual([{ name: 'Smith, Anna' }, { name: 'Chloé' }]);
          const parquet = await connector.query('select sku, title from "exports/products.parquet" order by sku', [], QUERY);
          expect(parquet).toEqual([
            { sku: 1, title: 'Pen' },
            { sku: 2, title: 'Ink' },
            { sku: 3, title: null },
          ]);
        } finally {
          await connector.close();
        }
      });

      it(`reads the ${item} again when it changes, and only then`, async () => {
        const connector = open();
        try {
          fake.put('exports/changing.csv', 'n\n1\n2\n');
          const total = async () =>
            (await connector.query<{ t: number }>('select sum(n)::int as t from "exports/changing.csv"', [], QUERY))[0]!.t;
          const readsSince = (before: number) =>
            requests()
              .slice(before)
              .filter((request) => kindOf(request) === 'read').length;
          let before = requests().length;
          expect(await total()).toBe(3);
          expect(readsSince(before)).toBeGreaterThan(0);
          before = requests().length;
          expect(await total()).toBe(3);
          expect(readsSince(before)).toBe(0);
          fake.put('exports/changing.csv', 'n\n10\n20\n');
          expect(await total()).toBe(30);
        } finally {
          await connector.close();
        }
      });

      it(`reaches only ${item}s under its prefix, and says a missing one is not found`, async () => {
        const connector = open();
        const outside = await failure(connector.columns('private/salaries.csv'));
        expect(outside.kind).toBe('invalid');
        expect(outside.message).toBe(`"private/salaries.csv" is not a CSV or Parquet ${item} of ${noun} "data" under "exports/"`);
        expect((await failure(connector.columns('exports/../private/salaries.csv'))).kind).toBe('invalid');
        const missing = await failure(connector.columns('exports/missing.csv'));
        expect(missing.kind).toBe('not_found');
        expect(missing.message).toBe(messages.missingObject);
      });

      it(`refuses ${item}s over the size limit before reading them`, async () => {
        const connector = open({}, { maxBytes: 16 });
        const before = requests().length;
        const error = await failure(connector.materialise('exports/customers.csv'));
        expect(error.message).toMatch(/^"exports\/customers.csv" is \d+ bytes, over the 16 bytes limit for querying a file$/);
        expect(storeCallsSince(before)).toEqual(['describe']);
      });
    });
  });
}
