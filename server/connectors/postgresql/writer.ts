import { splitTableEndpoint, type CellValue, type ColumnDefinition, type TableWriter } from '../types';
import { LONG_WORK_MS, quotePostgres, type PostgresAccess, type PostgresSession } from './session';

/** Writing tables (a copy's destination, in workflow tasks): creating, filling with COPY, and swapping in. */

/** A session whose every call is a turn of its own on a shared session. */
function turnTakingSession(access: PostgresAccess): PostgresSession {
  const turn = <T>(work: (session: PostgresSession) => Promise<T>) => access.withSession(work, LONG_WORK_MS);
  return {
    exec: (sql) => turn((session) => session.exec(sql)),
    query: (sql, params) => turn((session) => session.query(sql, params)),
    queryText: (sql, params, typeIds) => turn((session) => session.queryText(sql, params, typeIds)),
    run: (sql) => turn((session) => session.run(sql)),
    copyIn: (target, data) => turn((session) => session.copyIn(target, data)),
    inTransaction: () => turn((session) => session.inTransaction()),
  };
}

export function withPostgresWriter<T>(
  access: PostgresAccess,
  tableName: (endpoint: string) => string,
  work: (writer: TableWriter) => Promise<T>,
): Promise<T> {
  if (access.sharedSession) return work(postgresTableWriter(turnTakingSession(access), tableName));
  return access.withSession((session) => work(transactionalWriter(session, postgresTableWriter(session, tableName))), LONG_WORK_MS);
}

/** A writer on a session of its own can also hold a transaction across its statements. */
function transactionalWriter(session: PostgresSession, writer: TableWriter): TableWriter {
  return {
    ...writer,
    async inTransaction(work) {
      await session.exec('begin');
      try {
        const result = await work();
        await session.exec('commit');
        return result;
      } catch (error) {
        await session.exec('rollback').catch(() => {});
        throw error;
      }
    },
  };
}

function columnDefinitionSql(column: ColumnDefinition): string {
  return `${quotePostgres(column.name)} ${column.dataType}${column.nullable ? '' : ' not null'}`;
}

function postgresTableWriter(session: PostgresSession, tableName: (endpoint: string) => string): TableWriter {
  return {
    async exists(endpoint) {
      const [row] = await session.query('select pg_catalog.to_regclass($1) is not null as found', [tableName(endpoint)]);
      return Boolean(row?.found);
    },
    async create(endpoint, columns) {
      await session.run(`create table ${tableName(endpoint)} (${columns.map(columnDefinitionSql).join(', ')})`);
    },
    async drop(endpoint) {
      await session.run(`drop table if exists ${tableName(endpoint)}`);
    },
    async promote(staging, target, replace) {
      const { table } = splitTableEndpoint(target);
      const move = [
        ...(replace ? [`drop table if exists ${tableName(target)}`] : []),
        `alter table ${tableName(staging)} rename to ${quotePostgres(table)}`,
      ];
      // Inside the caller's transaction the move is part of it; on its own it is a transaction of its own.
      if (await session.inTransaction()) {
        await session.exec(move.join('; '));
        return;
      }
      try {
        await session.exec(['begin', ...move, 'commit'].join('; '));
      } catch (error) {
        await session.exec('rollback').catch(() => {});
        throw error;
      }
    },
    async append(endpoint, columns, batch) {
      const data = batch.format === 'copy-text' ? batch.data : copyText(batch.rows);
      return session.copyIn(`${tableName(endpoint)} (${columns.map(quotePostgres).join(', ')})`, data);
    },
  };
}

const COPY_SPECIAL = /[\\\n\r\t]/;
const COPY_SPECIAL_ALL = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One value in COPY's text format: `\N` for null, bytes as bytea's hex, backslashes and line breaks escaped. */
function copyField(value: CellValue): string {
  if (value === null) return '\\N';
  const text = typeof value === 'string' ? value : `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  return COPY_SPECIAL.test(text) ? text.replace(COPY_SPECIAL_ALL, (char) => COPY_ESCAPES[char]!) : text;
}

/** Rows in COPY's text format: tab-separated values, one line a row. */
function copyText(rows: readonly CellValue[][]): Buffer {
  const lines = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i += 1) lines[i] = rows[i]!.map(copyField).join('\t') + '\n';
  return Buffer.from(lines.join(''));
}
