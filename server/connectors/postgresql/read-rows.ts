import { randomBytes } from 'node:crypto';
import { abortReason, type CellValue, type ColumnInfo, type ReadRowsOptions, type RowReading, type RowSink } from '../types';
import { LONG_WORK_MS, type PostgresAccess, type PostgresSession, type TextRows } from './session';

/** Reading a query's rows in batches through a cursor (a copy's read, in workflow tasks). */

/** Values as text in forms every PostgreSQL reads back the same, whatever the session or server defaults. */
const PORTABLE_TEXT_SETTINGS =
  "set local datestyle = 'ISO, YMD'; set local intervalstyle = 'postgres'; set local extra_float_digits = 3; set local bytea_output = 'hex'";

/** The source's own names of the types behind a result's columns (`integer`, `character varying(80)`). */
async function describeColumns(session: PostgresSession, fields: TextRows['fields']): Promise<ColumnInfo[]> {
  if (fields.length === 0) return [];
  const [row] = await session.query(
    'select array(select pg_catalog.format_type(u.type_id, u.modifier) from unnest($1::oid[], $2::int4[]) with ordinality as u(type_id, modifier, n) order by u.n) as names',
    [fields.map((field) => field.typeId), fields.map((field) => field.typeModifier)],
  );
  const names = (row?.names ?? []) as string[];
  return fields.map((field, index) => ({ name: field.name, dataType: names[index] ?? 'text', nullable: true, position: index + 1 }));
}

/**
 * Hands batches to the sink as `fetchBatch` reads them, reading the next one while the sink
 * writes the last (the source and the destination work at the same time).
 */
async function pumpBatches(
  fetchBatch: () => Promise<CellValue[][]>,
  batchSize: number,
  sink: RowSink,
  signal: AbortSignal | undefined,
): Promise<void> {
  let next: Promise<CellValue[][]> | undefined = fetchBatch();
  while (next) {
    const rows: CellValue[][] = await next;
    if (rows.length === 0) return;
    if (signal?.aborted) throw abortReason(signal);
    next = rows.length < batchSize ? undefined : fetchBatch();
    try {
      await sink.write({ format: 'values', rows });
    } catch (error) {
      // The read ahead must end before the session is given back.
      await next?.catch(() => undefined);
      throw error;
    }
  }
}

/**
 * Reads one query's rows through a cursor, read-only. A session of its own keeps the cursor in a
 * transaction (repeatable read, so every batch sees the same data) and, on a server and without
 * parameters, lets `COPY (query) TO STDOUT` stream the rows when COPY text is preferred. A shared
 * session (the embedded database) cannot be held from one batch to the next: the cursor is
 * declared WITH HOLD, which keeps its rows past the transaction, and each batch is a turn.
 */
export function postgresRowReader(access: PostgresAccess): RowReading['readRows'] {
  return async (sql, params, options, sink) => {
    const { batchSize, signal } = options;
    if (signal?.aborted) throw abortReason(signal);
    if (!access.sharedSession) {
      await access.withSession(async (session) => {
        await session.exec('begin isolation level repeatable read read only');
        try {
          await readInTransaction(session, sql, params, options, sink);
          await session.exec('commit');
        } catch (error) {
          await session.exec('rollback').catch(() => {});
          throw error;
        }
      }, LONG_WORK_MS);
      return;
    }
    const cursor = `batch_read_${randomBytes(6).toString('hex')}`;
    // The query runs whole here (a cursor WITH HOLD keeps its rows at commit): a cancel stops it. Each batch after is a short read of
    // those rows, and the cancel is seen between batches.
    const { columns, typeIds } = await access.withSession(
      async (session) => {
        await session.exec(`begin read only; ${PORTABLE_TEXT_SETTINGS}`);
        try {
          await session.query(`declare ${cursor} no scroll cursor with hold for ${sql}`, params);
          await session.exec('commit');
        } catch (error) {
          await session.exec('rollback').catch(() => {});
          throw error;
        }
        const head = await session.queryText(`fetch forward 0 from ${cursor}`, []);
        return { columns: await describeColumns(session, head.fields), typeIds: head.fields.map((field) => field.typeId) };
      },
      LONG_WORK_MS,
      { signal },
    );
    try {
      await sink.start(columns);
      const fetchTurn = () =>
        access.withSession(async (session) => {
          await session.exec(`begin; ${PORTABLE_TEXT_SETTINGS}`);
          try {
            return (await session.queryText(`fetch forward ${batchSize} from ${cursor}`, [], typeIds)).rows;
          } finally {
            await session.exec('commit');
          }
        }, LONG_WORK_MS);
      await pumpBatches(fetchTurn, batchSize, sink, signal);
    } finally {
      await access.withSession((session) => session.exec(`close ${cursor}`), LONG_WORK_MS).catch(() => {});
    }
  };
}

/**
 * Reads a query's rows through a cursor on a session already in a (read-only) transaction that
 * nobody else uses meanwhile: with `COPY (query) TO STDOUT` when COPY text is preferred and the
 * session streams COPY (a server; the query then has no parameters), through FETCH otherwise.
 */
export async function readInTransaction(
  session: PostgresSession,
  sql: string,
  params: readonly unknown[],
  options: ReadRowsOptions,
  sink: RowSink,
): Promise<void> {
  const { batchSize, signal } = options;
  await session.exec(PORTABLE_TEXT_SETTINGS);
  await session.query(`declare batch_read no scroll cursor for ${sql}`, params);
  const head = await session.queryText('fetch forward 0 from batch_read', []);
  await sink.start(await describeColumns(session, head.fields));
  if (options.preferCopyText && session.copyOut && params.length === 0) {
    await session.exec('close batch_read');
    await session.copyOut(`copy (${sql}) to stdout`, batchSize, async (data, rowCount) => {
      if (signal?.aborted) throw abortReason(signal);
      await sink.write({ format: 'copy-text', rowCount, data });
    });
    return;
  }
  const typeIds = head.fields.map((field) => field.typeId);
  await pumpBatches(
    async () => (await session.queryText(`fetch forward ${batchSize} from batch_read`, [], typeIds)).rows,
    batchSize,
    sink,
    signal,
  );
  await session.exec('close batch_read');
}
