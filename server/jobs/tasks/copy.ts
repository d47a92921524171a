import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { copyTask } from '../../../common/schemas/workflows';
import {
  canReadRows,
  canWriteTables,
  splitTableEndpoint,
  type ColumnInfo,
  type Connector,
  type Dialect,
  type RowBatch,
  type RowReading,
  type RowSink,
  type TableSource,
  type TableWriting,
} from '../../connectors/types';
import { checkCompanySql } from '../../sql/company-sql';
import type { TaskContext, TaskExecutor, TaskOutcome } from '../types';
import { destinationColumn, valueConversion } from './column-types';
import type { TaskDeps } from './deps';
import { count, messageOf, taskFields } from './task-fields';
import { workflowConnections } from './workflow-connections';

/**
 * The `copy` task: a table or a query's rows from the pair's source into a table of its
 * destination, in batches.
 *
 * **Nothing half-written.** `create` and `replace` fill a table of their own beside the target
 * (`<table>_copy_<random>`) and put it in the target's place in one step at the end (`replace`
 * drops the old table in that step); a copy that fails or is canceled drops it, so the target is
 * as it was. `append` writes each batch in one transaction into the target itself (made when
 * missing): a failure keeps the batches already written, and its message says how many rows.
 *
 * **Fast paths.** Between PostgreSQL servers the rows travel as COPY text, from
 * `COPY … TO STDOUT` to `COPY … FROM STDIN`, never decoded; a PostgreSQL-speaking destination
 * takes every batch by COPY (the embedded database from memory); MySQL takes multi-row INSERTs.
 * The source reads the next batch while the destination writes one.
 */

export type CopyTask = z.output<typeof copyTask>;

export const DEFAULT_BATCH_SIZE = 10_000;
/** A progress line at most this often (the counts themselves are reported after every batch). */
const LOG_EVERY_MS = 2_000;

export interface CopyEnd {
  connector: Connector;
  /** The connection's name, for messages. */
  name: string;
}

export function copyExecutor(deps: TaskDeps): TaskExecutor {
  return async (task, context) => {
    const fields = taskFields(copyTask, task);
    const connections = await workflowConnections(deps, context);
    const source = await connections.source();
    const destination = await connections.destination();
    return deps.connectors.use(source, (sourceConnector) =>
      deps.connectors.use(destination, (destinationConnector) =>
        runCopy(
          { connector: sourceConnector, name: source.name },
          { connector: destinationConnector, name: destination.name },
          fields,
          context,
        ),
      ),
    );
  };
}

export async function runCopy(source: CopyEnd, destination: CopyEnd, task: CopyTask, context: TaskContext): Promise<TaskOutcome> {
  const reader = source.connector;
  const target = destination.connector;
  if (!canReadRows(reader)) throw new Error(`A copy cannot read rows from the source "${source.name}"`);
  if (!canWriteTables(target)) throw new Error(`A copy cannot write tables to the destination "${destination.name}"; choose a database`);
  const batchSize = task.batchSize ?? DEFAULT_BATCH_SIZE;
  const { table, mode } = task.to;
  const read = await readPlan(reader, task.from);
  const rowsTotal = 'table' in task.from ? await rowEstimate(reader, task.from.table) : undefined;
  await context.log(
    `Copying ${read.what}${rowsTotal === undefined ? '' : ` (about ${count(rowsTotal)} rows)`} of "${source.name}" into ${table} of "${destination.name}" (mode ${mode}, batches of ${count(batchSize)} rows)`,
  );

  const started = performance.now();
  let rowsRead = 0;
  let rowsWritten = 0;
  let lastLine = 0;

  return target.withTableWriter(async (writer) => {
    const exists = await writer.exists(table);
    if (mode === 'create' && exists) {
      throw new Error(
        `The table ${table} already exists in "${destination.name}": a copy in create mode makes a new table (choose replace or append to write to it)`,
      );
    }
    const staging = mode === 'append' ? undefined : stagingName(table);
    const writeTo = staging ?? table;
    /** A table this copy made, dropped when the copy fails. */
    let made: string | undefined;
    let columnNames: string[] = [];
    let convert = (batch: RowBatch) => batch;

    const sink: RowSink = {
      async start(columns) {
        const sourceColumns = read.columns ?? columns;
        columnNames = sourceColumns.map((column) => column.name);
        convert = batchConversion(reader.dialect, target.dialect, sourceColumns);
        if (mode === 'append' && exists) {
          await requireColumns(target, table, columnNames, destination.name);
          return;
        }
        const definitions = sourceColumns.map((column) => destinationColumn(reader.dialect, target.dialect, column));
        await writer.create(writeTo, definitions);
        if (staging) made = staging;
        await context.log(
          `Made ${staging ? `a new ${table}` : table} with columns ${definitions.map((column) => `${column.name} ${column.dataType}`).join(', ')}`,
        );
      },
      async write(batch) {
        rowsRead += batch.format === 'values' ? batch.rows.length : batch.rowCount;
        rowsWritten += await writer.append(writeTo, columnNames, convert(batch));
        await context.progress({ rowsRead, rowsWritten, ...(rowsTotal === undefined ? {} : { rowsTotal }) });
        const now = performance.now();
        if (lastLine === 0 || now - lastLine >= LOG_EVERY_MS) {
          lastLine = now;
          await context.log(`${count(rowsRead)} rows read, ${count(rowsWritten)} written`);
        }
      },
    };

    const copyAll = async () => {
      const preferCopyText = reader.dialect === 'postgres' && target.dialect === 'postgres';
      await reader.readRows(read.sql, [], { batchSize, preferCopyText, signal: context.signal }, sink);
      if (staging) await writer.promote(staging, table, mode === 'replace');
    };
    try {
      // A new table's rows need no commit of their own before it takes the target's place: one at the end spares the destination a flush to disk per batch.
      if (staging && writer.inTransaction) await writer.inTransaction(copyAll);
      else await copyAll();
      made = undefined;
    } catch (error) {
      if (made) await writer.drop(made).catch(() => {});
      const reason = context.signal.aborted
        ? `The copy was canceled after ${count(rowsRead)} rows were read`
        : `The copy failed after ${count(rowsRead)} rows were read: ${messageOf(error).replace(/\.$/, '')}`;
      const kept =
        mode === 'append'
          ? `${count(rowsWritten)} rows were written to ${table} before it stopped, and stay there`
          : `${table} is as it was before the copy: the rows copied so far were dropped with the table they went into`;
      throw new Error(`${reason}. ${kept}.`, { cause: error });
    }
    const seconds = (performance.now() - started) / 1000;
    await context.log(
      `Copied ${count(rowsWritten)} rows into ${table} in ${seconds.toFixed(1)} s (${count(Math.round(rowsWritten / Math.max(seconds, 0.001)))} rows/s)`,
    );
    return { rowsRead, rowsWritten };
  });
}

interface ReadPlan {
  sql: string;
  /** A table's columns as its source's catalog describes them (lengths, precisions, nullability), which a query's result does not tell. */
  columns?: ColumnInfo[];
  what: string;
}

/** The source's own row estimate of a table, where it keeps one (what the run page's percentage is of); none when it cannot say. */
async function rowEstimate(reader: TableSource, table: string): Promise<number | undefined> {
  try {
    const endpoint = (await reader.endpoints()).find((candidate) => candidate.id === table || candidate.name === table);
    return endpoint?.rows !== undefined && endpoint.rows > 0 ? endpoint.rows : undefined;
  } catch {
    return undefined;
  }
}

async function readPlan(reader: TableSource & RowReading, from: CopyTask['from']): Promise<ReadPlan> {
  if ('table' in from) {
    const columns = await reader.columns(from.table);
    const list = columns.map((column) => reader.quote(column.name)).join(', ');
    return { sql: `select ${list} from ${reader.tableName(from.table)}`, columns, what: `the table ${from.table}` };
  }
  // The company's query runs as checked and re-printed (server/sql/company-sql.ts), never as written.
  try {
    return { sql: await checkCompanySql(reader.dialect, from.query), what: 'the rows of a query' };
  } catch (error) {
    throw new Error(`from.query: ${messageOf(error)}`, { cause: error });
  }
}

/** What a batch's values become on the way (see column-types.ts); COPY text only travels between PostgreSQL databases, unchanged. */
function batchConversion(source: Dialect, destination: Dialect, columns: readonly ColumnInfo[]): (batch: RowBatch) => RowBatch {
  const conversions = columns.map((column) => valueConversion(source, destination, column.dataType));
  if (conversions.every((conversion) => conversion === undefined)) return (batch) => batch;
  return (batch) =>
    batch.format !== 'values'
      ? batch
      : { format: 'values', rows: batch.rows.map((row) => row.map((value, index) => conversions[index]?.(value) ?? value)) };
}

/** An existing table appended to must have every column the rows have (MySQL matches names whatever their case). */
async function requireColumns(
  destination: TableSource & TableWriting,
  table: string,
  names: readonly string[],
  destinationName: string,
): Promise<void> {
  const key = (name: string) => (destination.dialect === 'mysql' ? name.toLowerCase() : name);
  const present = new Set((await destination.columns(table)).map((column) => key(column.name)));
  const missing = names.filter((name) => !present.has(key(name)));
  if (missing.length > 0) {
    throw new Error(
      `The table ${table} of "${destinationName}" has no column ${missing.join(', ')}; the rows copied have the columns ${names.join(', ')}`,
    );
  }
}

/** MySQL names hold 64 characters and PostgreSQL's 63 bytes: the target's name is cut to leave room for the suffix. */
const STAGING_BASE_BYTES = 40;

/** A table of the copy's own beside the target, in the same schema (a rename cannot move a table between schemas). */
function stagingName(target: string): string {
  const { schema, table } = splitTableEndpoint(target);
  let base = '';
  for (const char of table) {
    if (Buffer.byteLength(base + char) > STAGING_BASE_BYTES) break;
    base += char;
  }
  const name = `${base}_copy_${randomBytes(4).toString('hex')}`;
  return schema === undefined ? name : `${schema}.${name}`;
}
