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

export { fileTableSource } from './file-table-source';
export {
  DEFAULT_TABULAR_LIMITS,
  tabularFormatOf,
  type FileStorage,
  type FileTableSource,
  type LoadReport,
  type TabularFile,
  type TabularFormat,
  type TabularLimits,
} from './types';
