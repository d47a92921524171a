import { Readable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectorError } from '../../../server/connectors/types';
import type { TabularFile } from '../../../server/connectors/tabular/types';

/**
 * hyparquet is imported at the first Parquet file read. When it cannot be loaded (a broken
 * install), the failure is the server's: it must not be told to the company as its file being
 * unreadable.
 */

const file: TabularFile = {
  endpoint: 'sales/products.parquet',
  format: 'parquet',
  size: 8,
  version: '8-1',
  openStream: async () => Readable.from([Buffer.from('PAR1PAR1')]),
  openRandomAccess: async () => {
    const bytes = new TextEncoder().encode('not parquet at all').buffer;
    return { byteLength: bytes.byteLength, slice: (start: number, end?: number) => bytes.slice(start, end) };
  },
};

describe('the Parquet parser, loaded at first use', () => {
  afterEach(() => {
    vi.doUnmock('hyparquet');
    vi.resetModules();
  });

  it('tells a file that is not Parquet as the file’s fault', async () => {
    const { parquetMetadataOf } = await import('../../../server/connectors/tabular/parquet');
    const error = await parquetMetadataOf(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).message).toMatch(/^"sales\/products\.parquet" is not a readable Parquet file: /);
  });

  it('does not blame the file when the parser itself cannot be loaded', async () => {
    vi.resetModules();
    vi.doMock('hyparquet', () => {
      throw new Error('Cannot find package hyparquet');
    });
    const { parquetMetadataOf } = await import('../../../server/connectors/tabular/parquet');
    const { ConnectorError: Reloaded } = await import('../../../server/connectors/types');
    const error = await parquetMetadataOf(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(Reloaded);
    // The loader's own error (the test runner wraps it, with the original as its cause).
    const { message, cause } = error as Error;
    expect(`${message} ${(cause as Error | undefined)?.message ?? ''}`).toMatch(/Cannot find package hyparquet/);
  });
});
