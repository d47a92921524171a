import type { Dialect } from '../connectors/types';

/**
 * The functions SQL a company writes may not call (server/sql/company-sql.ts), in one place. A
 * read-only transaction does not stop them: they read or write files of the database host, leave
 * locks or settings on a pooled session, reach other sessions, databases and servers, or run SQL
 * given as text, which no check of the query can see. Each reason ends the refusal's message
 * (`pg_read_file is not allowed: it reads files of the database server`).
 *
 * pg_sleep and SLEEP are allowed on purpose: statement time limits stop them.
 */

export interface DeniedFunction {
  /** Lower case, without a schema. */
  name: string;
  /** Every function whose name starts with `name` (`lo_` covers lo_import, lo_export, …). */
  prefix?: boolean;
  /** Refused only when called with this many arguments (ts_rewrite's form that takes a query as text). */
  argumentCount?: number;
  reason: string;
}

const READS_FILES = 'it reads files of the database server';
const WRITES_FILES = 'it writes, renames or removes files of the database server';
const LARGE_OBJECTS = 'large objects read and write files of the database server and outlast the query';
const SETTINGS = 'it reads or changes settings of the database server or the session';
const LOCKS = 'it takes or frees locks that outlast the query';
const OTHER_SESSIONS = 'it reaches other sessions of the database server';
const OTHER_SERVERS = 'it reaches other databases or servers';
const REPLICATION = 'it works on replication, which a query here may not touch';
const SQL_AS_TEXT = 'it runs SQL of its own, given as text or built by the server, which this check cannot see';
const SERVER_CONTROL = 'it controls the database server';

const POSTGRES: readonly DeniedFunction[] = [
  // Files of the database host
  { name: 'pg_read_file', reason: READS_FILES },
  { name: 'pg_read_binary_file', reason: READS_FILES },
  { name: 'pg_stat_file', reason: READS_FILES },
  { name: 'pg_ls_', prefix: true, reason: READS_FILES },
  { name: 'pg_logdir_ls', reason: READS_FILES },
  { name: 'pg_current_logfile', reason: READS_FILES },
  { name: 'pg_hba_file_rules', reason: READS_FILES },
  { name: 'pg_ident_file_mappings', reason: READS_FILES },
  { name: 'pg_file_', prefix: true, reason: WRITES_FILES },
  // Large objects
  { name: 'lo_', prefix: true, reason: LARGE_OBJECTS },
  { name: 'loread', reason: LARGE_OBJECTS },
  { name: 'lowrite', reason: LARGE_OBJECTS },
  // Settings
  { name: 'set_config', reason: SETTINGS },
  { name: 'current_setting', reason: SETTINGS },
  { name: 'pg_show_all_settings', reason: SETTINGS },
  { name: 'pg_settings_get_flags', reason: SETTINGS },
  { name: 'pg_reload_conf', reason: SERVER_CONTROL },
  { name: 'pg_rotate_logfile', reason: SERVER_CONTROL },
  // Locks
  { name: 'pg_advisory_', prefix: true, reason: LOCKS },
  { name: 'pg_try_advisory_', prefix: true, reason: LOCKS },
  // Other sessions
  { name: 'pg_cancel_backend', reason: OTHER_SESSIONS },
  { name: 'pg_terminate_backend', reason: OTHER_SESSIONS },
  { name: 'pg_signal_backend', reason: OTHER_SESSIONS },
  { name: 'pg_stat_get_activity', reason: OTHER_SESSIONS },
  { name: 'pg_blocking_pids', reason: OTHER_SESSIONS },
  { name: 'pg_log_backend_memory_contexts', reason: OTHER_SESSIONS },
  { name: 'pg_notify', reason: OTHER_SESSIONS },
  // Other databases and servers, replication
  { name: 'dblink', prefix: true, reason: OTHER_SERVERS },
  { name: 'pg_logical_', prefix: true, reason: REPLICATION },
  { name: 'pg_replication_', prefix: true, reason: REPLICATION },
  { name: 'pg_create_', prefix: true, reason: REPLICATION },
  { name: 'pg_drop_', prefix: true, reason: REPLICATION },
  { name: 'pg_copy_logical_replication_slot', reason: REPLICATION },
  { name: 'pg_copy_physical_replication_slot', reason: REPLICATION },
  // SQL given as text
  { name: 'query_to_xml', prefix: true, reason: SQL_AS_TEXT },
  { name: 'cursor_to_xml', prefix: true, reason: SQL_AS_TEXT },
  { name: 'table_to_xml', prefix: true, reason: SQL_AS_TEXT },
  { name: 'schema_to_xml', prefix: true, reason: SQL_AS_TEXT },
  { name: 'database_to_xml', prefix: true, reason: SQL_AS_TEXT },
  { name: 'ts_stat', reason: SQL_AS_TEXT },
  { name: 'ts_rewrite', argumentCount: 2, reason: SQL_AS_TEXT },
  // Server control
  { name: 'pg_switch_wal', reason: SERVER_CONTROL },
  { name: 'pg_promote', reason: SERVER_CONTROL },
  { name: 'pg_backup_start', reason: SERVER_CONTROL },
  { name: 'pg_backup_stop', reason: SERVER_CONTROL },
  { name: 'pg_start_backup', reason: SERVER_CONTROL },
  { name: 'pg_stop_backup', reason: SERVER_CONTROL },
  { name: 'pg_wal_replay_', prefix: true, reason: SERVER_CONTROL },
  { name: 'pg_stat_reset', prefix: true, reason: SERVER_CONTROL },
  { name: 'pg_import_system_collations', reason: SERVER_CONTROL },
];

const MYSQL: readonly DeniedFunction[] = [
  { name: 'load_file', reason: READS_FILES },
  { name: 'get_lock', reason: LOCKS },
  { name: 'release_lock', reason: LOCKS },
  { name: 'release_all_locks', reason: LOCKS },
  { name: 'is_free_lock', reason: LOCKS },
  { name: 'is_used_lock', reason: LOCKS },
  { name: 'master_pos_wait', reason: REPLICATION },
  { name: 'source_pos_wait', reason: REPLICATION },
  { name: 'master_gtid_wait', reason: REPLICATION },
  { name: 'wait_for_executed_gtid_set', reason: REPLICATION },
  { name: 'wait_until_sql_thread_after_gtids', reason: REPLICATION },
  { name: 'sys_exec', reason: 'it runs commands on the database server' },
  { name: 'sys_eval', reason: 'it runs commands on the database server' },
  { name: 'benchmark', reason: 'it runs an expression over and over, only to load the database server' },
];

/** The dialects whose queries are parsed and checked (a company's SQL does not run on Databricks: company-sql.ts). */
export type CheckedDialect = Exclude<Dialect, 'databricks'>;

export const DENIED_FUNCTIONS: Record<CheckedDialect, readonly DeniedFunction[]> = { postgres: POSTGRES, mysql: MYSQL };

/** The entry refusing a call of `name` (any case, schema already stripped) with `argumentCount` arguments, if any. */
export function deniedFunction(dialect: CheckedDialect, name: string, argumentCount: number): DeniedFunction | undefined {
  const lower = name.toLowerCase();
  return DENIED_FUNCTIONS[dialect].find(
    (entry) =>
      (entry.prefix ? lower.startsWith(entry.name) : lower === entry.name) &&
      (entry.argumentCount === undefined || entry.argumentCount === argumentCount),
  );
}
