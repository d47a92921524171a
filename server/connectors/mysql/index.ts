/**
 * The `mysql` connection type: a MySQL or MariaDB server reached with `mysql2`. The connector
 * (connector.ts) puts together the connections (connection.ts: a pool for statements, a connection
 * of its own for copies and scripts), the session settings and names (session.ts), the catalogue
 * (catalog.ts), reading rows (read-rows.ts, with fields.ts for a result's column types), writing
 * tables (writer.ts) and running scripts (statements.ts).
 */

export { openMysqlConnector } from './connector';
export { type MysqlOptions } from './connection';
