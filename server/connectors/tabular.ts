import { createHash } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import { cachedAsyncBuffer, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import type { AsyncBuffer, FileMetaData, SchemaElement, SchemaTree } from 'hyparquet';
import { formatSeconds } from './http';
import { PgliteTurns, type ThreadSession, type TurnOwner } from './pglite-host';
import { readInTransaction } from './postgresql';
import {
  ConnectorError,
  type ColumnInfo,
  type Connector,
  type QueryOptions,
  type ReadRowsOptions,
  type RowReading,
  type RowSink,
  type TableSource,
} from './types';

/**
 * CSV and Parquet files as tables, wherever the files live (a folder, a bucket): their columns,
 * and a TableSource that answers SQL about them so that data-quality rules run on files as they
 * run on databases.
 *
 * **One TableSource per connection.** `tableName(endpoint)` names a table in an in-memory PGlite
 * database the connection keeps; `query()` finds the files a statement names (the quoted names
 * `tableName` gave, or a file's path written as a quoted name, `select * from "sales/q1.csv"`),
 * loads each one (or reuses it while the file is unchanged) and runs the statement. So a rule can
 * join two files of the same folder. Paths longer than PostgreSQL's 63-byte names are shortened
 * with a hash; such a file is named in SQL by what `tableName` answers.
 *
 * **Types.** A CSV's columns are typed from its first 1,000 rows (integer, bigint, numeric,
 * boolean, date, timestamp, timestamp with time zone, or text; nullable when an empty cell is
 * seen). Later rows may hold values that do not fit: those are loaded as null, and the load
 * report counts them per column (`valuesReadAsNull`) so that a rule's result can say why.
 * Parquet columns keep the types their schema declares (nested ones become jsonb).
 *
 * **Statements never change a file.** Each runs in a transaction that is rolled back (read-only
 * when asked, so that a write fails with PostgreSQL's own message).
 *
 * **Off the request thread.** The database lives in a worker thread (pglite-host.ts), so a slow
 * statement stalls no other request. One still running at its time limit is stopped with the
 * thread, and the files it had loaded are loaded again by the next statement that names them.
 */

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

/** The columns of a file, without loading it: a CSV's header and first rows, a Parquet file's schema. */
async function readTabularColumns(file: TabularFile): Promise<ColumnInfo[]> {
  if (file.format === 'parquet') return parquetColumns(await parquetMetadataOf(file)).map((column) => column.info);
  const records = csvRecords(file);
  try {
    const { columns } = await readCsvHead(file, records);
    return columns.map((column) => column.info);
  } finally {
    await records.return(undefined);
  }
}

export function fileTableSource(storage: FileStorage, limits: TabularLimits = DEFAULT_TABULAR_LIMITS): FileTableSource {
  return new MaterialisedFiles(storage, limits);
}

// ---------------------------------------------------------------------------------------------
// CSV: records, header, type inference

const SAMPLE_ROWS = 1000;
/** A record longer than this is not a CSV row but a runaway quote: stop rather than fill the memory. */
const MAX_CSV_RECORD_BYTES = 16 * 1024 * 1024;

/** The file's records, streamed: the file is never read whole into memory. */
async function* csvRecords(file: TabularFile): AsyncGenerator<string[]> {
  const input = await file.openStream();
  const parser = parseCsv({ bom: true, skip_empty_lines: true, max_record_size: MAX_CSV_RECORD_BYTES });
  // pipeline ends both streams on an error or an early stop; the error reaches the loop below.
  pipeline(input, parser, () => undefined);
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield record;
  } catch (error) {
    throw error instanceof ConnectorError ? error : new ConnectorError(`"${file.endpoint}": ${messageOf(error)}`, 'invalid');
  } finally {
    input.destroy();
    parser.destroy();
  }
}

type CsvType = 'integer' | 'bigint' | 'numeric' | 'boolean' | 'date' | 'timestamp' | 'timestamp with time zone' | 'text';
type ValueKind = Exclude<CsvType, 'text' | 'timestamp with time zone'> | 'timestamptz' | 'other';

/** Each type and the kinds of value it holds, narrowest type first: a column takes the first that holds all it saw. */
const CSV_TYPES: ReadonlyArray<{ type: CsvType; holds: ReadonlySet<ValueKind> }> = [
  { type: 'integer', holds: new Set(['integer']) },
  { type: 'bigint', holds: new Set(['integer', 'bigint']) },
  { type: 'numeric', holds: new Set(['integer', 'bigint', 'numeric']) },
  { type: 'boolean', holds: new Set(['boolean']) },
  { type: 'date', holds: new Set(['date']) },
  { type: 'timestamp', holds: new Set(['date', 'timestamp']) },
  { type: 'timestamp with time zone', holds: new Set(['date', 'timestamp', 'timestamptz']) },
];

const INT4 = { min: -2147483648n, max: 2147483647n };
const INT8 = { min: -9223372036854775808n, max: 9223372036854775807n };
const INTEGER_TEXT = /^[+-]?\d+$/;
const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const BOOLEAN_TEXT = /^(true|false)$/i;
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP_TEXT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(Z|[+-](\d{2})(?::?(\d{2}))?)?$/i;

function kindOf(value: string): ValueKind {
  if (INTEGER_TEXT.test(value)) {
    const number = BigInt(value);
    if (number >= INT4.min && number <= INT4.max) return 'integer';
    return number >= INT8.min && number <= INT8.max ? 'bigint' : 'numeric';
  }
  if (NUMERIC_TEXT.test(value)) return 'numeric';
  if (BOOLEAN_TEXT.test(value)) return 'boolean';
  const date = DATE_TEXT.exec(value);
  if (date) return isCalendarDate(date[1]!, date[2]!, date[3]!) ? 'date' : 'other';
  const stamp = TIMESTAMP_TEXT.exec(value);
  if (
    stamp &&
    isCalendarDate(stamp[1]!, stamp[2]!, stamp[3]!) &&
    isTimeOfDay(stamp[4]!, stamp[5]!, stamp[6] ?? '0', stamp[8] ?? '0', stamp[9] ?? '0')
  ) {
    return stamp[7] ? 'timestamptz' : 'timestamp';
  }
  return 'other';
}

function isCalendarDate(year: string, month: string, day: string): boolean {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function isTimeOfDay(hours: string, minutes: string, seconds: string, offsetHours: string, offsetMinutes: string): boolean {
  return Number(hours) <= 23 && Number(minutes) <= 59 && Number(seconds) <= 59 && Number(offsetHours) <= 14 && Number(offsetMinutes) <= 59;
}

const isEmptyCell = (cell: string | undefined) => cell === undefined || cell.trim() === '';

/** What a column's sampled cells say of its type. */
class ColumnProfile {
  readonly kinds = new Set<ValueKind>();
  sawEmpty = false;

  observe(cell: string | undefined): void {
    if (isEmptyCell(cell)) this.sawEmpty = true;
    else this.kinds.add(kindOf(cell!.trim()));
  }

  type(): CsvType {
    if (this.kinds.size === 0) return 'text';
    return CSV_TYPES.find((candidate) => [...this.kinds].every((kind) => candidate.holds.has(kind)))?.type ?? 'text';
  }
}

interface LoadColumn {
  info: ColumnInfo;
  /** The value as COPY reads it, or null for an empty cell and for a value that does not fit (counted). */
  toSql(value: unknown): string | null | typeof DOES_NOT_FIT;
}

const DOES_NOT_FIT = Symbol('does not fit');

function csvColumn(name: string, position: number, profile: ColumnProfile): LoadColumn {
  const type = profile.type();
  const holds = CSV_TYPES.find((candidate) => candidate.type === type)?.holds;
  return {
    info: { name, dataType: type, nullable: profile.sawEmpty, position },
    toSql(value) {
      const cell = value as string | undefined;
      if (isEmptyCell(cell)) return null;
      if (!holds) return cell!.includes('\0') ? DOES_NOT_FIT : cell!;
      const trimmed = cell!.trim();
      return holds.has(kindOf(trimmed)) ? trimmed : DOES_NOT_FIT;
    },
  };
}

/** Reads the header and up to 1,000 rows, and types the columns from them. */
async function readCsvHead(file: TabularFile, records: AsyncGenerator<string[]>): Promise<{ columns: LoadColumn[]; sample: string[][] }> {
  const first = await records.next();
  if (first.done) throw new ConnectorError(`"${file.endpoint}" is empty: a CSV file needs a header row`, 'invalid');
  const names = tableColumnNames(first.value);
  const profiles = names.map(() => new ColumnProfile());
  const sample: string[][] = [];
  while (sample.length < SAMPLE_ROWS) {
    const next = await records.next();
    if (next.done) break;
    sample.push(next.value);
    profiles.forEach((profile, index) => profile.observe(next.value[index]));
  }
  return { columns: names.map((name, index) => csvColumn(name, index + 1, profiles[index]!)), sample };
}

const MAX_NAME_BYTES = 63;

/**
 * Header cells as column names PostgreSQL keeps as they are: a blank one is named by its
 * position, a long one is cut to 63 bytes, and a repeated one gets a suffix.
 */
function tableColumnNames(header: readonly string[]): string[] {
  const taken = new Set<string>();
  return header.map((cell, index) => {
    const base = truncateToBytes(cell.trim() || `column_${index + 1}`, MAX_NAME_BYTES);
    let name = base;
    for (let n = 2; taken.has(name); n += 1) name = `${truncateToBytes(base, MAX_NAME_BYTES - String(n).length - 1)}_${n}`;
    taken.add(name);
    return name;
  });
}

function truncateToBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let cut = '';
  for (const char of text) {
    if (Buffer.byteLength(cut + char) > maxBytes) break;
    cut += char;
  }
  return cut;
}

// ---------------------------------------------------------------------------------------------
// Parquet: schema and rows

async function parquetMetadataOf(file: TabularFile): Promise<FileMetaData> {
  try {
    return await parquetMetadataAsync(await file.openRandomAccess());
  } catch (error) {
    if (error instanceof ConnectorError) throw error;
    throw new ConnectorError(`"${file.endpoint}" is not a readable Parquet file: ${messageOf(error)}`, 'invalid');
  }
}

function parquetColumns(metadata: FileMetaData): LoadColumn[] {
  return parquetSchema(metadata).children.map((node, index) => {
    const dataType = node.children.length > 0 || node.element.repetition_type === 'REPEATED' ? 'jsonb' : parquetLeafType(node.element);
    return {
      info: { name: node.element.name, dataType, nullable: node.element.repetition_type !== 'REQUIRED', position: index + 1 },
      toSql: (value) => parquetValueToSql(value, dataType, node),
    };
  });
}

/** The PostgreSQL type that holds a Parquet column as hyparquet decodes it. */
function parquetLeafType(element: SchemaElement): string {
  const logical = element.logical_type;
  switch (logical?.type) {
    case 'STRING':
    case 'ENUM':
      return 'text';
    case 'JSON':
      return 'jsonb';
    case 'UUID':
      return 'uuid';
    case 'DATE':
      return 'date';
    case 'DECIMAL':
      return `numeric(${logical.precision},${logical.scale})`;
    case 'TIME':
      return 'time';
    case 'TIMESTAMP':
      return logical.isAdjustedToUTC ? 'timestamp with time zone' : 'timestamp';
    case 'FLOAT16':
      return 'real';
    case 'INTEGER':
      if (logical.bitWidth <= 16) return logical.isSigned || logical.bitWidth < 16 ? 'smallint' : 'integer';
      if (logical.bitWidth === 32) return logical.isSigned ? 'integer' : 'bigint';
      return logical.isSigned ? 'bigint' : 'numeric';
    default:
      break;
  }
  switch (element.converted_type) {
    case 'UTF8':
    case 'ENUM':
      return 'text';
    case 'JSON':
      return 'jsonb';
    case 'DATE':
      return 'date';
    case 'DECIMAL':
      return `numeric(${element.precision ?? 38},${element.scale ?? 0})`;
    case 'TIME_MILLIS':
    case 'TIME_MICROS':
      return 'time';
    case 'TIMESTAMP_MILLIS':
    case 'TIMESTAMP_MICROS':
      return 'timestamp with time zone';
    case 'INT_8':
    case 'INT_16':
    case 'UINT_8':
      return 'smallint';
    case 'UINT_16':
      return 'integer';
    case 'UINT_32':
      return 'bigint';
    case 'UINT_64':
      return 'numeric';
    default:
      break;
  }
  const physical: Record<string, string> = {
    BOOLEAN: 'boolean',
    INT32: 'integer',
    INT64: 'bigint',
    INT96: 'timestamp',
    FLOAT: 'real',
    DOUBLE: 'double precision',
    // hyparquet reads plain byte arrays as UTF-8 text.
    BYTE_ARRAY: 'text',
    FIXED_LEN_BYTE_ARRAY: 'bytea',
  };
  return physical[element.type ?? ''] ?? 'text';
}

function parquetValueToSql(value: unknown, dataType: string, node: SchemaTree): string | null | typeof DOES_NOT_FIT {
  if (value === null || value === undefined) return null;
  if (dataType === 'jsonb') return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner));
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return DOES_NOT_FIT;
    const iso = value.toISOString();
    if (dataType === 'date') return iso.slice(0, 10);
    return dataType === 'timestamp' ? iso.slice(0, -1) : iso;
  }
  if (dataType === 'time') return timeOfDay(value, node.element);
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (typeof value === 'number' && !Number.isFinite(value) && !['real', 'double precision'].includes(dataType)) return DOES_NOT_FIT;
  const text = String(value);
  return text.includes('\0') ? DOES_NOT_FIT : text;
}

/** Parquet keeps a time of day as a count of milli-, micro- or nanoseconds since midnight. */
function timeOfDay(value: unknown, element: SchemaElement): string | typeof DOES_NOT_FIT {
  const logical = element.logical_type;
  const unit = logical?.type === 'TIME' ? logical.unit : element.converted_type === 'TIME_MILLIS' ? 'MILLIS' : 'MICROS';
  const perMicro = { MILLIS: 1000n, MICROS: 1n, NANOS: 1n } as const;
  const perDivide = { MILLIS: 1n, MICROS: 1n, NANOS: 1000n } as const;
  if (typeof value !== 'number' && typeof value !== 'bigint') return DOES_NOT_FIT;
  const micros = (BigInt(value) * perMicro[unit]) / perDivide[unit];
  const totalSeconds = Number(micros / 1_000_000n);
  const fraction = String(micros % 1_000_000n).padStart(6, '0');
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(totalSeconds / 3600))}:${pad(Math.floor(totalSeconds / 60) % 60)}:${pad(totalSeconds % 60)}.${fraction}`;
}

// ---------------------------------------------------------------------------------------------
// Loading a file into a table

/** A file opened for loading: its columns, and its rows as they come. */
interface TableReader {
  columns: LoadColumn[];
  rows: AsyncIterable<readonly unknown[]>;
  /** Stops reading (on a failure or an early end). */
  stop(): Promise<void>;
}

async function openCsvReader(file: TabularFile): Promise<TableReader> {
  const records = csvRecords(file);
  try {
    const { columns, sample } = await readCsvHead(file, records);
    async function* rows() {
      yield* sample;
      for await (const record of records) yield record;
    }
    return { columns, rows: rows(), stop: async () => void (await records.return(undefined)) };
  } catch (error) {
    await records.return(undefined);
    throw error;
  }
}

async function openParquetReader(file: TabularFile, limits: TabularLimits): Promise<TableReader> {
  const metadata = await parquetMetadataOf(file);
  if (metadata.num_rows > BigInt(limits.maxRows)) throw tooManyRows(file, limits);
  const buffer = cachedAsyncBuffer(await file.openRandomAccess());
  const columns = parquetColumns(metadata);
  async function* rows() {
    // One row group at a time: a group is what Parquet compresses together, and memory stays bounded by it.
    let rowStart = 0;
    for (const group of metadata.row_groups) {
      const rowEnd = rowStart + Number(group.num_rows);
      let objects: Record<string, unknown>[];
      try {
        objects = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd, rowFormat: 'object' });
      } catch (error) {
        throw new ConnectorError(`"${file.endpoint}" could not be read: ${messageOf(error)}`, 'invalid');
      }
      for (const object of objects) yield columns.map((column) => object[column.info.name]);
      rowStart = rowEnd;
    }
  }
  return { columns, rows: rows(), stop: async () => undefined };
}

function tooManyRows(file: TabularFile, limits: TabularLimits): ConnectorError {
  return new ConnectorError(
    `"${file.endpoint}" has more than ${limits.maxRows.toLocaleString('en-US')} rows, the most a file may have to be queried`,
    'invalid',
  );
}

/** Rows are copied into the table this many at a time: COPY is PostgreSQL's fast way in, and a batch bounds the memory. */
const COPY_BATCH_ROWS = 5000;

function csvLine(values: ReadonlyArray<string | null>): string {
  return values.map((value) => (value === null ? '' : `"${value.replace(/"/g, '""')}"`)).join(',');
}

/** A statement or read of the files, for the messages of its limit. */
const lateQuery = (timeoutMs: number) => new ConnectorError(`The query did not finish within ${formatSeconds(timeoutMs)}`, 'timeout');

class MaterialisedFiles implements FileTableSource {
  readonly dialect = 'postgres' as const;
  /** The connection's database, in memory in a worker thread: its tables go with the thread when a statement is stopped. */
  private readonly database = new PgliteTurns({ label: 'The database of the files', onThreadEnd: () => this.loaded.clear() });
  /** Files loaded, with the thread (generation) whose database holds their table. */
  private readonly loaded = new Map<string, { version: string; report: LoadReport; generation: number }>();
  private readonly loading = new Map<string, Promise<LoadReport>>();
  /** Table names given out, so that a statement naming one finds its file. */
  private readonly endpointsByTable = new Map<string, string>();
  private loads = 0;

  constructor(
    private readonly storage: FileStorage,
    private readonly limits: TabularLimits,
  ) {}

  test() {
    return this.storage.test();
  }

  endpoints() {
    return this.storage.endpoints();
  }

  async columns(endpoint: string): Promise<ColumnInfo[]> {
    return readTabularColumns(await this.storage.locate(endpoint));
  }

  quote(identifier: string): string {
    return `"${identifier.replace(/"/g, '""')}"`;
  }

  tableName(endpoint: string): string {
    const name = tableIdentifier(endpoint);
    this.endpointsByTable.set(name, endpoint);
    return this.quote(name);
  }

  async materialise(endpoint: string): Promise<LoadReport> {
    return this.load(await this.storage.locate(endpoint));
  }

  /** Loading the files a statement names and running it count against its limit; opening the database does not. */
  async query<Row extends Record<string, unknown> = Record<string, unknown>>(
    sql: string,
    params: readonly unknown[],
    options: QueryOptions,
  ): Promise<Row[]> {
    await this.database.opened();
    const rows = await this.database.limited(
      async (owner) => {
        await this.materialiseNamed(sql, owner);
        return this.database.turn(
          (session) => session.queryRolledBack<Row>(sql, params, options.readOnly ?? false).catch(rethrowAsQueryError),
          owner,
        );
      },
      { timeoutMs: options.timeoutMs, late: () => lateQuery(options.timeoutMs) },
    );
    return options.maxRows === undefined ? rows : rows.slice(0, options.maxRows);
  }

  async close(): Promise<void> {
    this.loaded.clear();
    this.endpointsByTable.clear();
    // Nothing of an in-memory database is worth a checkpoint: the thread is ended, and its memory given back.
    await Promise.all([this.database.stop(), this.storage.close()]);
  }

  /** The statement's files are loaded first; the rows are then read in a read-only transaction that is rolled back. */
  async readRows(sql: string, params: readonly unknown[], options: ReadRowsOptions, sink: RowSink): Promise<void> {
    await this.database.opened();
    await this.database.limited(
      async (owner) => {
        await this.materialiseNamed(sql, owner);
        await this.database.turn(async (session) => {
          try {
            await session.exec('BEGIN READ ONLY');
            await readInTransaction(session, sql, params, options, sink);
          } catch (error) {
            rethrowAsQueryError(error);
          } finally {
            if (session.alive) await session.exec('ROLLBACK').catch(() => {});
          }
        }, owner);
      },
      // A read has no time limit of its own: its run's signal ends it.
      { timeoutMs: Infinity, late: () => lateQuery(Infinity), signal: options.signal },
    );
  }

  /** Loads the files a statement names. */
  private async materialiseNamed(sql: string, owner: TurnOwner): Promise<void> {
    for (const name of quotedIdentifiers(sql)) {
      const given = this.endpointsByTable.get(name);
      if (given !== undefined) await this.load(await this.storage.locate(given), owner);
      else if (tabularFormatOf(name)) await this.materialiseIfPresent(name, owner);
    }
  }

  /** A quoted name that merely looks like a file (a column alias "total.csv") is left to PostgreSQL to judge. */
  private async materialiseIfPresent(endpoint: string, owner: TurnOwner): Promise<void> {
    let file: TabularFile;
    try {
      file = await this.storage.locate(endpoint);
    } catch (error) {
      if (error instanceof ConnectorError && (error.kind === 'not_found' || error.kind === 'invalid')) return;
      throw error;
    }
    await this.load(file, owner);
  }

  private load(file: TabularFile, owner?: TurnOwner): Promise<LoadReport> {
    const cached = this.loaded.get(file.endpoint);
    if (cached && cached.version === file.version && cached.generation === this.database.generation) return Promise.resolve(cached.report);
    const key = `${file.endpoint}\n${file.version}`;
    const running = this.loading.get(key);
    if (running) return running;
    const load = this.copyIntoTable(file, owner).finally(() => this.loading.delete(key));
    this.loading.set(key, load);
    return load;
  }

  /** Each statement of a load is a turn of its own, so that the connection's other statements run between its batches. */
  private async copyIntoTable(file: TabularFile, owner: TurnOwner | undefined): Promise<LoadReport> {
    if (file.size > this.limits.maxBytes) {
      throw new ConnectorError(
        `"${file.endpoint}" is ${formatBytes(file.size)}, over the ${formatBytes(this.limits.maxBytes)} limit for querying a file`,
        'invalid',
      );
    }
    const reader = file.format === 'csv' ? await openCsvReader(file) : await openParquetReader(file, this.limits);
    // Loaded under a name of its own, then swapped in at once, so a statement never meets a half-loaded table.
    this.loads += 1;
    const staging = this.quote(`loading ${this.loads}`);
    const target = tableIdentifier(file.endpoint);
    const valuesReadAsNull: Record<string, number> = {};
    let rows = 0;
    let generation: number | undefined;
    // Every statement of the load on the same database: one whose thread was stopped meanwhile lost the staging table.
    const turn = (work: (session: ThreadSession) => Promise<unknown>) =>
      this.database.turn(async (session) => {
        generation ??= session.generation;
        if (session.generation !== generation)
          throw new ConnectorError(`"${file.endpoint}" could not be loaded: the database of the files was stopped meanwhile`, 'failed');
        await work(session);
      }, owner);
    try {
      const definitions = reader.columns.map((column) => `${this.quote(column.info.name)} ${column.info.dataType}`);
      await turn((session) => session.exec(`CREATE TABLE ${staging} (${definitions.join(', ')})`));
      let batch: string[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        // Bytes of their own, handed to the thread rather than copied to it.
        const data = textEncoder.encode(batch.join('\n') + '\n');
        batch = [];
        await turn((session) => session.copyFromOwned(`COPY ${staging} FROM '/dev/blob' WITH (FORMAT csv)`, data));
      };
      for await (const row of reader.rows) {
        rows += 1;
        if (rows > this.limits.maxRows) throw tooManyRows(file, this.limits);
        const values = reader.columns.map((column, index) => {
          const value = column.toSql(row[index]);
          if (value !== DOES_NOT_FIT) return value;
          valuesReadAsNull[column.info.name] = (valuesReadAsNull[column.info.name] ?? 0) + 1;
          return null;
        });
        batch.push(csvLine(values));
        if (batch.length >= COPY_BATCH_ROWS) await flush();
      }
      await flush();
      // Statements sent together run as one transaction.
      await turn((session) =>
        session.exec(`DROP TABLE IF EXISTS ${this.quote(target)}; ALTER TABLE ${staging} RENAME TO ${this.quote(target)}`),
      );
    } catch (error) {
      await reader.stop();
      await turn((session) => session.exec(`DROP TABLE IF EXISTS ${staging}`)).catch(() => {});
      if (error instanceof ConnectorError) throw error;
      throw new ConnectorError(`"${file.endpoint}" could not be loaded: ${messageOf(error)}`, 'failed');
    }
    this.endpointsByTable.set(target, file.endpoint);
    const report: LoadReport = {
      endpoint: file.endpoint,
      tableName: this.quote(target),
      rows,
      columns: reader.columns.map((column) => column.info),
      valuesReadAsNull,
    };
    this.loaded.set(file.endpoint, { version: file.version, report, generation: generation! });
    return report;
  }
}

const textEncoder = new TextEncoder();

function rethrowAsQueryError(error: unknown): never {
  throw queryError(error);
}

/** The endpoint itself when PostgreSQL can keep it as a name; otherwise its start and a hash of it. */
function tableIdentifier(endpoint: string): string {
  if (Buffer.byteLength(endpoint) <= MAX_NAME_BYTES) return endpoint;
  const hash = createHash('sha256').update(endpoint).digest('hex').slice(0, 16);
  return `${truncateToBytes(endpoint, MAX_NAME_BYTES - hash.length - 1)}~${hash}`;
}

/** `$$` or `$tag$`, which open a dollar-quoted string (a parameter, `$1`, does not). */
const DOLLAR_QUOTE = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/;

/** The double-quoted names in a statement, outside its strings and comments. */
function quotedIdentifiers(sql: string): string[] {
  const names: string[] = [];
  let i = 0;
  const skipTo = (end: string, from: number) => {
    const at = sql.indexOf(end, from);
    return at === -1 ? sql.length : at + end.length;
  };
  while (i < sql.length) {
    const char = sql[i]!;
    if (char === "'") {
      i += 1;
      while (i < sql.length && !(sql[i] === "'" && sql[i + 1] !== "'")) i += sql[i] === "'" ? 2 : 1;
      i += 1;
    } else if (char === '-' && sql[i + 1] === '-') {
      i = skipTo('\n', i);
    } else if (char === '/' && sql[i + 1] === '*') {
      i = skipTo('*/', i + 2);
    } else if (char === '$' && DOLLAR_QUOTE.test(sql.slice(i, i + 64))) {
      const tag = DOLLAR_QUOTE.exec(sql.slice(i, i + 64))![0];
      i = skipTo(tag, i + tag.length);
    } else if (char === '"') {
      let name = '';
      i += 1;
      while (i < sql.length) {
        if (sql[i] === '"' && sql[i + 1] === '"') {
          name += '"';
          i += 2;
        } else if (sql[i] === '"') break;
        else name += sql[i++];
      }
      i += 1;
      names.push(name);
    } else {
      i += 1;
    }
  }
  return names;
}

/** PostgreSQL's own words, with the kind a caller acts on. */
function queryError(error: unknown): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const code = (error as { code?: string }).code;
  const kind = code === '25006' ? 'read_only' : code === '42P01' ? 'not_found' : code === '57014' ? 'timeout' : 'failed';
  return new ConnectorError(messageOf(error), kind);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
