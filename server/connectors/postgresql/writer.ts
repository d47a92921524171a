import { randomBytes } from 'node:crypto';
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
    async create(endpoint, columns, key) {
      const primaryKey = key && key.length > 0 ? [`primary key (${key.map(quotePostgres).join(', ')})`] : [];
      await session.run(`create table ${tableName(endpoint)} (${[...columns.map(columnDefinitionSql), ...primaryKey].join(', ')})`);
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
    async uniqueKeys(endpoint) {
      // Partial and expression indexes cannot stand behind ON CONFLICT (columns): only plain ones count.
      const rows = await session.query(
        `select to_json(array(select a.attname from unnest(i.indkey) with ordinality as k(attnum, n)
                                join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
                               order by k.n)) as columns
           from pg_catalog.pg_index i
          where i.indrelid = pg_catalog.to_regclass($1) and i.indisunique and i.indpred is null and i.indexprs is null`,
        [tableName(endpoint)],
      );
      return rows.map((row) => jsonList(row.columns));
    },
    async repeatedKey(endpoint, keys) {
      const quoted = keys.map(quotePostgres);
      const [row] = await session.query(
        `select ${quoted.map((key, index) => `${key}::text as k${index}`).join(', ')} from ${tableName(endpoint)}
          where ${quoted.map((key) => `${key} is not null`).join(' and ')}
          group by ${quoted.join(', ')} having count(*) > 1 limit 1`,
        [],
      );
      return row ? keys.map((_, index) => (row[`k${index}`] as string | null) ?? null) : undefined;
    },
    async emptyKey(endpoint, keys) {
      const [row] = await session.query(
        `select ${keys.map((key, index) => `bool_or(${quotePostgres(key)} is null) as k${index}`).join(', ')} from ${tableName(endpoint)}`,
        [],
      );
      return keys.find((_, index) => row?.[`k${index}`] === true);
    },
    async addUniqueKey(endpoint, keys) {
      // An index lives in its table's schema; its name is the table's, cut short, and a suffix of its own.
      const { table } = splitTableEndpoint(endpoint);
      const name = `${Buffer.from(table)
        .subarray(0, 40)
        .toString()
        .replace(/\uFFFD+$/, '')}_merge_key_${randomBytes(3).toString('hex')}`;
      const statement = `create unique index ${quotePostgres(name)} on ${tableName(endpoint)} (${keys.map(quotePostgres).join(', ')})`;
      await session.run(statement);
      return statement;
    },
    async moveRows(from, into, columns, keys) {
      const list = columns.map(quotePostgres).join(', ');
      const others = columns.filter((column) => !keys?.includes(column)).map(quotePostgres);
      const onConflict =
        keys === undefined || keys.length === 0
          ? ''
          : ` on conflict (${keys.map(quotePostgres).join(', ')}) do ${
              others.length === 0 ? 'nothing' : `update set ${others.map((column) => `${column} = excluded.${column}`).join(', ')}`
            }`;
      await session.run(`insert into ${tableName(into)} (${list}) select ${list} from ${tableName(from)}${onConflict}`);
    },
  };
}

/** A list a query answered as JSON: parsed by the driver, or still text where it is not. */
function jsonList(value: unknown): string[] {
  const list: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(list) ? list.map(String) : [];
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
