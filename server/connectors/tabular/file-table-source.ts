import { PgliteTurns, type ThreadSession, type TurnOwner } from '../pglite-host';
import { readInTransaction } from '../postgresql';
import { ConnectorError, type ColumnInfo, type QueryOptions, type ReadRowsOptions, type RowSink } from '../types';
import { csvRecords, openCsvReader, readCsvHead } from './csv';
import { formatBytes, lateQuery, messageOf, rethrowAsQueryError, tooManyRows } from './errors';
import { quotedIdentifiers, tableIdentifier } from './names';
import { openParquetReader, parquetColumns, parquetMetadataOf } from './parquet';
import {
  DEFAULT_TABULAR_LIMITS,
  DOES_NOT_FIT,
  tabularFormatOf,
  type FileStorage,
  type FileTableSource,
  type LoadReport,
  type TabularFile,
  type TabularLimits,
} from './types';

/** A connection's files as a TableSource: each file a statement names is loaded into a table of the connection's database. */

/** The columns of a file, without loading it: a CSV's header and first rows, a Parquet file's schema. */
async function readTabularColumns(file: TabularFile): Promise<ColumnInfo[]> {
  if (file.format === 'parquet') return (await parquetColumns(await parquetMetadataOf(file))).map((column) => column.info);
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

/** Rows are copied into the table this many at a time: COPY is PostgreSQL's fast way in, and a batch bounds the memory. */
const COPY_BATCH_ROWS = 5000;

function csvLine(values: ReadonlyArray<string | null>): string {
  return values.map((value) => (value === null ? '' : `"${value.replace(/"/g, '""')}"`)).join(',');
}

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
