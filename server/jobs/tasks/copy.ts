import { createHash, randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { copyTask } from '../../../common/schemas/workflows';
import {
  abortReason,
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
import { checkReadKeys, prepareMergeTarget, requireSourceColumns } from './copy-merge';
import type { TaskDeps } from './deps';
import { count, messageOf, taskFields } from './task-fields';
import { readWatermark, saveWatermark, type WatermarkOf, type WatermarkStart } from './watermarks';
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
 * **Merge and incremental copies never double rows.** `merge` upserts by key columns of the
 * source (copy-merge.ts): the rows go to a table of the copy's own first, then into the target in
 * one statement (`INSERT … ON CONFLICT … DO UPDATE` on PostgreSQL and the embedded database,
 * `INSERT … ON DUPLICATE KEY UPDATE` on MySQL), so a run adds all its rows or none and running it
 * again changes nothing. A copy with a watermark column reads only the rows above the last
 * successful run's greatest value (watermarks.ts), and appends them the same way, in one statement
 * at the end: the watermark moves once the destination holds them, so a failed run is read again.
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
/** Reading the greatest watermark of the source, before the rows. */
const WATERMARK_TIMEOUT_MS = 10 * 60_000;

export interface CopyEnd {
  connector: Connector;
  /** The connection's name, for messages. */
  name: string;
}

export interface CopyOutcome extends TaskOutcome {
  /** An incremental copy's greatest watermark among the rows it read (the source's text); where it started when it read none. */
  watermark?: string | null;
}

export function copyExecutor(deps: TaskDeps): TaskExecutor {
  return async (task, context) => {
    const fields = taskFields(copyTask, task);
    const watermark = fields.watermark === undefined ? undefined : watermarkOf(fields, fields.watermark);
    const start = watermark ? await readWatermark(deps.db, context, watermark) : undefined;
    const connections = await workflowConnections(deps, context);
    const source = await connections.source();
    const destination = await connections.destination();
    const outcome = await deps.connectors.use(source, (sourceConnector) =>
      deps.connectors.use(destination, (destinationConnector) =>
        runCopy(
          { connector: sourceConnector, name: source.name },
          { connector: destinationConnector, name: destination.name },
          fields,
          context,
          start,
        ),
      ),
    );
    // Moved only now that the destination holds the rows: a run that failed before left it where it was.
    if (watermark) {
      await saveWatermark(deps.db, context, watermark, outcome.watermark ?? null);
      if (outcome.watermark) await context.log(`The next run reads the rows with ${watermark.column} after ${outcome.watermark}`);
    }
    return { rowsRead: outcome.rowsRead, rowsWritten: outcome.rowsWritten };
  };
}

/** What a task's watermark is of: a table by its name, a query by a hash of its text (an edited query starts over). */
function watermarkOf(task: CopyTask, column: string): WatermarkOf {
  const source = 'table' in task.from ? `table:${task.from.table}` : `query:${createHash('sha256').update(task.from.query).digest('hex')}`;
  return { taskId: task.id, source, column };
}

export async function runCopy(
  source: CopyEnd,
  destination: CopyEnd,
  task: CopyTask,
  context: TaskContext,
  start?: WatermarkStart,
): Promise<CopyOutcome> {
  const reader = source.connector;
  const target = destination.connector;
  if (!canReadRows(reader)) throw new Error(`A copy cannot read rows from the source "${source.name}"`);
  if (!canWriteTables(target)) throw new Error(`A copy cannot write tables to the destination "${destination.name}"; choose a database`);
  const batchSize = task.batchSize ?? DEFAULT_BATCH_SIZE;
  const { table, mode } = task.to;
  const keys = mode === 'merge' ? (task.to.keys ?? []) : undefined;
  if (keys && keys.length === 0) throw new Error('A merge needs key columns: choose the source columns that identify a row');
  const incremental =
    task.watermark === undefined ? undefined : { column: task.watermark, start: start ?? { after: null, reason: 'first run' as const } };
  const read = await readPlan(reader, task.from, incremental);
  const rowsTotal = 'table' in task.from && !incremental ? await rowEstimate(reader, task.from.table) : undefined;
  /** Merges and incremental appends add to the target itself; create and replace put a new table in its place. */
  const addsToTarget = mode === 'append' || mode === 'merge';
  await context.log(
    `Copying ${read.what}${rowsTotal === undefined ? '' : ` (about ${count(rowsTotal)} rows)`} of "${source.name}" into ${table} of "${destination.name}" (mode ${mode}${keys ? ` by ${keys.join(', ')}` : ''}, batches of ${count(batchSize)} rows)`,
  );
  if (read.which) await context.log(`Reading ${read.which}`);

  const started = performance.now();
  let rowsRead = 0;
  let rowsWritten = 0;
  let lastLine = 0;

  return target.withTableWriter(async (writer) => {
    const exists = await writer.exists(table);
    if (mode === 'create' && exists) {
      throw new Error(
        `The table ${table} already exists in "${destination.name}": a copy in create mode makes a new table (choose replace, append or merge to write to it)`,
      );
    }
    // A plain append writes each batch into the target; everything else fills a table of its own first, so the target takes all rows or none.
    const staging = mode === 'append' && !incremental ? undefined : stagingName(table);
    const writeTo = staging ?? table;
    /** Tables this copy made, dropped when the copy fails. */
    let made: string | undefined;
    let madeTarget: string | undefined;
    let columnNames: string[] = [];
    let convert = (batch: RowBatch) => batch;

    const sink: RowSink = {
      async start(columns) {
        const sourceColumns = read.columns ?? columns;
        columnNames = sourceColumns.map((column) => column.name);
        convert = batchConversion(reader.dialect, target.dialect, sourceColumns);
        if (keys) requireSourceColumns(keys, columnNames, reader.dialect, 'key');
        if (incremental) requireSourceColumns([incremental.column], columnNames, reader.dialect, 'watermark');
        const definitions = sourceColumns.map((column) => destinationColumn(reader.dialect, target.dialect, column));
        const described = definitions.map((column) => `${column.name} ${column.dataType}`).join(', ');
        if (addsToTarget && exists) {
          await requireColumns(target, table, columnNames, destination.name);
          if (keys)
            await prepareMergeTarget(
              writer,
              { table, connectionName: destination.name, dialect: target.dialect },
              keys,
              context.log,
              columnNames,
            );
        } else if (addsToTarget) {
          await writer.create(table, definitions, keys);
          // A plain append keeps the table it made with the batches already in it; a staged copy leaves nothing behind.
          if (staging) madeTarget = table;
          await context.log(`Made ${table} with columns ${described}${keys ? `, its primary key ${keys.join(', ')}` : ''}`);
        }
        if (!staging) return;
        await writer.create(staging, definitions);
        made = staging;
        if (!addsToTarget) await context.log(`Made a new ${table} with columns ${described}`);
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
      await reader.readRows(read.sql, read.params, { batchSize, preferCopyText, signal: context.signal }, sink);
      if (!staging) return;
      if (!addsToTarget) {
        await writer.promote(staging, table, mode === 'replace');
        return;
      }
      if (keys) await checkReadKeys(writer, staging, keys);
      if (context.signal.aborted) throw abortReason(context.signal);
      // One statement: the target takes every row read, or none.
      await writer.moveRows(staging, table, columnNames, keys);
      await writer.drop(staging);
    };
    try {
      // A new table's rows need no commit of their own before it takes the target's place: one at the end spares the destination a flush to disk per batch.
      if (staging && writer.inTransaction) await writer.inTransaction(copyAll);
      else await copyAll();
      made = undefined;
    } catch (error) {
      if (made) await writer.drop(made).catch(() => {});
      if (madeTarget) await writer.drop(madeTarget).catch(() => {});
      const reason = context.signal.aborted
        ? `The copy was canceled after ${count(rowsRead)} rows were read`
        : `The copy failed after ${count(rowsRead)} rows were read: ${messageOf(error).replace(/\.$/, '')}`;
      const kept = !staging
        ? `${count(rowsWritten)} rows were written to ${table} before it stopped, and stay there`
        : addsToTarget
          ? `No row of ${table} was written or changed: the rows read were dropped with the table they went into`
          : `${table} is as it was before the copy: the rows copied so far were dropped with the table they went into`;
      throw new Error(`${reason}. ${kept}.`, { cause: error });
    }
    const seconds = (performance.now() - started) / 1000;
    await context.log(
      `${keys ? 'Merged' : 'Copied'} ${count(rowsWritten)} rows into ${table}${keys ? ` by ${keys.join(', ')}` : ''} in ${seconds.toFixed(1)} s (${count(Math.round(rowsWritten / Math.max(seconds, 0.001)))} rows/s)`,
    );
    const outcome: CopyOutcome = { rowsRead, rowsWritten };
    if (incremental) outcome.watermark = rowsRead > 0 ? (read.upTo ?? null) : incremental.start.after;
    return outcome;
  });
}

interface ReadPlan {
  sql: string;
  params: unknown[];
  /** A table's columns as its source's catalog describes them (lengths, precisions, nullability), which a query's result does not tell. */
  columns?: ColumnInfo[];
  what: string;
  /** An incremental copy's rows, in words ("rows with updated_at after …", "all rows, first run"). */
  which?: string;
  /** An incremental copy reads up to this watermark, the greatest when it started (rows written meanwhile wait for the next run). */
  upTo?: string | null;
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

async function readPlan(
  reader: TableSource & RowReading,
  from: CopyTask['from'],
  incremental?: { column: string; start: WatermarkStart },
): Promise<ReadPlan> {
  const plan = await wholeRead(reader, from);
  if (!incremental) return plan;
  const { column: name, start } = incremental;
  if (plan.columns)
    requireSourceColumns(
      [name],
      plan.columns.map((column) => column.name),
      reader.dialect,
      'watermark',
    );
  const relation = 'table' in from ? reader.tableName(from.table) : `(${plan.sql}) as copy_source`;
  const select = 'table' in from ? plan.sql : `select * from ${relation}`;
  const column = reader.quote(name);
  const greatest = reader.dialect === 'mysql' ? `cast(max(${column}) as char)` : `max(${column})::text`;
  let upTo: string | null;
  try {
    const [row] = await reader.query(`SELECT ${greatest} AS top FROM ${relation}`, [], { timeoutMs: WATERMARK_TIMEOUT_MS, readOnly: true });
    upTo = row?.top === null || row?.top === undefined ? null : String(row.top);
  } catch (error) {
    throw new Error(`The greatest ${name} of the source could not be read: ${messageOf(error)}`, { cause: error });
  }
  const param = (n: number) => (reader.dialect === 'postgres' ? `$${n}` : '?');
  if (start.after !== null) {
    return {
      ...plan,
      sql: `${select} where ${column} > ${param(1)} and ${column} <= ${param(2)}`,
      params: [start.after, upTo ?? start.after],
      which: `rows with ${name} after ${start.after}${upTo === null ? '' : ` up to ${upTo}`}`,
      upTo,
    };
  }
  // Every row: those without a watermark too, which later runs never see again.
  const which = `all rows, ${start.reason}`;
  if (upTo === null) return { ...plan, which, upTo };
  return { ...plan, sql: `${select} where (${column} <= ${param(1)} or ${column} is null)`, params: [upTo], which, upTo };
}

async function wholeRead(reader: TableSource & RowReading, from: CopyTask['from']): Promise<ReadPlan> {
  if ('table' in from) {
    const columns = await reader.columns(from.table);
    const list = columns.map((column) => reader.quote(column.name)).join(', ');
    return { sql: `select ${list} from ${reader.tableName(from.table)}`, params: [], columns, what: `the table ${from.table}` };
  }
  // The company's query runs as checked and re-printed (server/sql/company-sql.ts), never as written.
  try {
    return { sql: await checkCompanySql(reader.dialect, from.query), params: [], what: 'the rows of a query' };
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
