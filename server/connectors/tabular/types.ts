import type { Readable } from 'node:stream';
import type { AsyncBuffer } from 'hyparquet';
import type { ColumnInfo, Connector, RowReading, TableSource } from '../types';

/** Files as tables: what a storage connector brings, what loading a file answers, and what the CSV and Parquet readers hand the loader. */

export type TabularFormat = 'csv' | 'parquet';

export function tabularFormatOf(name: string): TabularFormat | undefined {
  const lower = name.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.parquet')) return 'parquet';
  return undefined;
}

/** How big a file may be to be loaded for querying: it is held in memory while the connection is open. */
export interface TabularLimits {
  maxBytes: number;
  maxRows: number;
}

export const DEFAULT_TABULAR_LIMITS: TabularLimits = { maxBytes: 200 * 1024 * 1024, maxRows: 2_000_000 };

/** One data file, wherever it is kept. */
export interface TabularFile {
  /** The endpoint id, which names the file in every message. */
  endpoint: string;
  format: TabularFormat;
  size: number;
  /** Changes whenever the content may have (size and modification time, an ETag): the cache key. */
  version: string;
  /** The whole file, from its first byte. */
  openStream(): Promise<Readable>;
  /** Random access, for Parquet's footer and row groups. */
  openRandomAccess(): Promise<AsyncBuffer>;
}

/** What loading a file into a table found. */
export interface LoadReport {
  endpoint: string;
  /** The quoted table name statements use. */
  tableName: string;
  rows: number;
  columns: ColumnInfo[];
  /** Per column, how many values did not fit the column's type and were loaded as null. */
  valuesReadAsNull: Record<string, number>;
}

/** A TableSource over files, which can also say what loading a file found, and read a query's rows in batches (to copy a file). */
export interface FileTableSource extends TableSource, RowReading {
  /** Loads the file into its table, or reuses the table while the file is unchanged. */
  materialise(endpoint: string): Promise<LoadReport>;
}

/** What a storage connector brings: its own test and listing, and how to reach one file. */
export interface FileStorage extends Connector {
  /** The file behind an endpoint; a missing one, or one outside the folder or bucket, is a ConnectorError. */
  locate(endpoint: string): Promise<TabularFile>;
}

export interface LoadColumn {
  info: ColumnInfo;
  /** The value as COPY reads it, or null for an empty cell and for a value that does not fit (counted). */
  toSql(value: unknown): string | null | typeof DOES_NOT_FIT;
}

export const DOES_NOT_FIT = Symbol('does not fit');

/** A file opened for loading: its columns, and its rows as they come. */
export interface TableReader {
  columns: LoadColumn[];
  rows: AsyncIterable<readonly unknown[]>;
  /** Stops reading (on a failure or an early end). */
  stop(): Promise<void>;
}
