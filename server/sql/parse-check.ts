import { ConnectorError, type Dialect } from '../connectors/types';
import { deniedFunction } from './denied-functions';

/**
 * The check of company SQL itself (company-sql.ts says what it refuses and why): parsed by its
 * dialect's parser, walked against the deny list, and re-printed. It runs in a thread of its own
 * (check-worker.mjs, through check-thread.ts), so that a long text or a parser's slow path never
 * holds the server's requests.
 */

const refuse = (message: string) => new ConnectorError(message, 'invalid');

const NOT_REPRINTABLE = 'This query cannot be re-printed without changing it, so it cannot be checked; write it another way';

/**
 * Checks a company's query on this thread and answers the text to run (company-sql.ts runs it in
 * a thread of its own).
 */
export async function checkCompanySqlHere(dialect: Dialect, text: string): Promise<string> {
  // A parser that cannot be loaded is this server's failure, not the query's: it is not answered as a refusal.
  const check =
    dialect === 'postgres' ? checkPostgres.bind(null, await loadPostgresParser()) : checkMysql.bind(null, await loadMysqlParser());
  try {
    return await check(text);
  } catch (err) {
    if (err instanceof ConnectorError) throw err;
    // A parser failing in a way of its own (a nesting too deep for it) refuses the text rather than let it through.
    throw refuse(`This query cannot be checked: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Line and position (both from 1) of a 0-based offset into the text. */
function placeIn(text: string, offset: number): string {
  const lines = text.slice(0, Math.max(0, offset)).split('\n');
  return `line ${lines.length}, position ${lines[lines.length - 1]!.length + 1}`;
}

const unreadable = (message: string, place: string | undefined) =>
  refuse(`The query cannot be read: ${message}${place ? ` (${place})` : ''}`);

function countStatements(count: number): void {
  if (count === 0) throw refuse('This text holds no query: write one SELECT (or WITH … SELECT)');
  if (count > 1) throw refuse(`Only one statement may run here; this text holds ${count}`);
}

const notAQuery = (kind: string) => refuse(`Only a query (SELECT or WITH … SELECT) may run here, not ${kind}`);

const refusedCall = (name: string, reason: string) => refuse(`${name} is not allowed: ${reason}`);

// ---- PostgreSQL -----------------------------------------------------------------------------------

interface PostgresParser {
  parser: typeof import('libpg-query');
  deparse: (typeof import('pgsql-deparser'))['deparse'];
}
let postgresParser: Promise<PostgresParser> | undefined;

/** libpg_query is WebAssembly, loaded once on first use, with the deparser that prints its trees. */
function loadPostgresParser(): Promise<PostgresParser> {
  postgresParser ??= Promise.all([import('libpg-query'), import('pgsql-deparser')]).then(
    async ([parser, { deparse }]) => {
      await parser.loadModule();
      return { parser, deparse };
    },
    (err: unknown) => {
      postgresParser = undefined;
      throw err;
    },
  );
  return postgresParser;
}

/** Statement node names whose words are not just the name split (`DeleteStmt` → DELETE). */
const POSTGRES_STATEMENT_WORDS: Record<string, string> = {
  VariableSetStmt: 'SET',
  VariableShowStmt: 'SHOW',
  TransactionStmt: 'a transaction command',
  CreateStmt: 'CREATE TABLE',
  CreateTableAsStmt: 'CREATE TABLE … AS',
  IndexStmt: 'CREATE INDEX',
  ViewStmt: 'CREATE VIEW',
  CreateTrigStmt: 'CREATE TRIGGER',
  RuleStmt: 'CREATE RULE',
  CheckPointStmt: 'CHECKPOINT',
  ClosePortalStmt: 'CLOSE',
  DeclareCursorStmt: 'DECLARE',
};

function postgresStatementWords(kind: string): string {
  return (
    POSTGRES_STATEMENT_WORDS[kind] ??
    kind
      .replace(/Stmt$/, '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toUpperCase()
  );
}

const POSTGRES_WRITES: Record<string, string> = { InsertStmt: 'INSERT', UpdateStmt: 'UPDATE', DeleteStmt: 'DELETE', MergeStmt: 'MERGE' };

const POSTGRES_LOCKS: Record<string, string> = {
  LCS_FORUPDATE: 'FOR UPDATE',
  LCS_FORNOKEYUPDATE: 'FOR NO KEY UPDATE',
  LCS_FORSHARE: 'FOR SHARE',
  LCS_FORKEYSHARE: 'FOR KEY SHARE',
};

interface PostgresFuncCall {
  funcname?: Array<{ String?: { sval?: string } }>;
  args?: unknown[];
}

/**
 * Walks every node of a parse tree (sub-selects, CTEs, FROM functions, expressions, window and
 * ORDER BY clauses alike): libpg_query answers plain JSON, each node an object named by its type.
 * The branches of a set operation (`larg`, `rarg`) come without their type's name, so the clauses
 * of a SELECT are looked for on any object.
 */
function checkPostgresTree(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) checkPostgresTree(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (record.intoClause) throw refuse('SELECT … INTO is not allowed: a query here may not write');
  if (Array.isArray(record.lockingClause) && record.lockingClause.length > 0) {
    const strength = (record.lockingClause[0] as { LockingClause?: { strength?: string } }).LockingClause?.strength ?? '';
    throw refuse(`${POSTGRES_LOCKS[strength] ?? 'FOR UPDATE'} is not allowed: a query here may not lock rows`);
  }
  const cte = record.CommonTableExpr as { ctename?: string; ctequery?: Record<string, unknown> } | undefined;
  const cteKind = cte?.ctequery ? Object.keys(cte.ctequery)[0] : undefined;
  if (cteKind && POSTGRES_WRITES[cteKind])
    throw refuse(`A WITH query here may not change data (${POSTGRES_WRITES[cteKind]} in "${cte?.ctename ?? ''}")`);
  for (const [kind, words] of Object.entries(POSTGRES_WRITES))
    if (kind in record) throw refuse(`A query here may not change data (${words})`);
  const call = record.FuncCall as PostgresFuncCall | undefined;
  if (call) {
    const name = call.funcname?.at(-1)?.String?.sval ?? '';
    const denied = deniedFunction('postgres', name, call.args?.length ?? 0);
    if (denied) throw refusedCall(name, denied.reason);
  }
  for (const value of Object.values(record)) checkPostgresTree(value);
}

/** Where a token is in the text: positions differ between a text and its re-printing, and say nothing of the query. */
const POSITION_KEYS = new Set(['location', 'stmt_location', 'stmt_len', 'list_start', 'list_end']);

function withoutPositions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutPositions);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => !POSITION_KEYS.has(key))
      .map(([key, value]) => [key, withoutPositions(value)]),
  );
}

type PostgresTree = ReturnType<PostgresParser['parser']['parseSync']>;

function parsePostgres(parser: PostgresParser['parser'], text: string): PostgresTree {
  try {
    return parser.parseSync(text);
  } catch (err) {
    const details = parser.hasSqlDetails(err) ? err.sqlDetails : undefined;
    const message = details?.message ?? (err instanceof Error ? err.message : String(err));
    // libpg_query's cursor is the 0-based character offset of the token it stopped at.
    throw unreadable(message, details && details.cursorPosition >= 0 ? placeIn(text, details.cursorPosition) : undefined);
  }
}

async function checkPostgres({ parser, deparse }: PostgresParser, text: string): Promise<string> {
  const tree = parsePostgres(parser, text);
  const statements = tree.stmts ?? [];
  countStatements(statements.length);
  const statement = (statements[0]?.stmt ?? {}) as Record<string, unknown>;
  const kind = Object.keys(statement)[0] ?? '';
  if (kind !== 'SelectStmt') throw notAQuery(postgresStatementWords(kind));
  checkPostgresTree(statement);

  let printed: string;
  try {
    // The statement alone: printed whole, the text would keep a semicolon that ended it.
    printed = await deparse(statement as Parameters<typeof deparse>[0], { pretty: false });
  } catch {
    throw refuse(NOT_REPRINTABLE);
  }
  // The text that runs is read once more: it must be the very query that was checked.
  let again: PostgresTree | undefined;
  try {
    again = parser.parseSync(printed);
  } catch {
    again = undefined;
  }
  const same =
    again?.stmts?.length === 1 && JSON.stringify(withoutPositions(again.stmts[0]?.stmt)) === JSON.stringify(withoutPositions(statement));
  if (!same) throw refuse(NOT_REPRINTABLE);
  return printed;
}

// ---- MySQL and MariaDB ----------------------------------------------------------------------------

interface MysqlParser {
  astify(sql: string, options: object): unknown;
  sqlify(ast: unknown, options: object): string;
}

const MYSQL_OPTIONS = { database: 'MySQL' };
let mysqlParser: Promise<MysqlParser> | undefined;

/** node-sql-parser's MySQL build only (a tenth of the package), loaded on first use. */
function loadMysqlParser(): Promise<MysqlParser> {
  mysqlParser ??= import('node-sql-parser/build/mysql').then(
    (module) => {
      const exported = module as unknown as { Parser?: new () => MysqlParser; default?: { Parser: new () => MysqlParser } };
      const Parser = exported.Parser ?? exported.default!.Parser;
      return new Parser();
    },
    (err: unknown) => {
      mysqlParser = undefined;
      throw err;
    },
  );
  return mysqlParser;
}

interface PegSyntaxError {
  message: string;
  location?: { start?: { line?: number; column?: number } };
}

/** The parser lists every token it would have taken; what it found is what a person needs. */
function mysqlSyntaxMessage(message: string): string {
  const found = /\bbut (.+) found\.?$/s.exec(message)?.[1];
  if (found === undefined) return message;
  return found === 'end of input' ? 'the text ends where more was expected' : `unexpected ${found}`;
}

/** The one statement of a MySQL text, which must be a query. */
function parseMysql(parser: MysqlParser, text: string): Record<string, unknown> {
  let ast: unknown;
  try {
    ast = parser.astify(text, MYSQL_OPTIONS);
  } catch (err) {
    const failure = err as PegSyntaxError;
    const start = failure.location?.start;
    const place = start?.line !== undefined && start.column !== undefined ? `line ${start.line}, position ${start.column}` : undefined;
    throw unreadable(mysqlSyntaxMessage(failure.message ?? String(err)), place);
  }
  const statements = (Array.isArray(ast) ? ast : [ast]).filter(
    (statement): statement is Record<string, unknown> => statement !== null && typeof statement === 'object',
  );
  countStatements(statements.length);
  const statement = statements[0]!;
  if (statement.type !== 'select')
    throw notAQuery(
      String(statement.type ?? 'this statement')
        .replace(/_/g, ' ')
        .toUpperCase(),
    );
  return statement;
}

/** A function's name as written, without its schema: node-sql-parser names aggregates by a string, other functions by parts. */
function mysqlFunctionName(name: unknown): string {
  if (typeof name === 'string') return name;
  const parts = (name as { name?: Array<{ value?: unknown }> } | null)?.name;
  return Array.isArray(parts) ? String(parts.at(-1)?.value ?? '') : '';
}

function mysqlArgumentCount(args: unknown): number {
  const list = (args as { value?: unknown } | null)?.value;
  return Array.isArray(list) ? list.length : args ? 1 : 0;
}

function checkMysqlInto(into: unknown): void {
  const target = into as { keyword?: string; type?: string; expr?: unknown } | null | undefined;
  if (!target || (!target.keyword && !target.type && !target.expr)) return;
  const keyword = String(target.keyword ?? '').toLowerCase();
  if (keyword === 'outfile' || keyword === 'dumpfile')
    throw refuse(`INTO ${keyword.toUpperCase()} is not allowed: a query here may not write files`);
  if (keyword === 'var') throw refuse('SELECT … INTO @variable is not allowed: a query here may not set variables');
  throw refuse('SELECT … INTO is not allowed: a query here may not write');
}

/** Walks every node of a node-sql-parser tree, whatever holds it. */
function checkMysqlTree(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) checkMysqlTree(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if ('into' in record) checkMysqlInto(record.into);
  if (record.locking_read) {
    const words = typeof record.locking_read === 'string' ? record.locking_read.toUpperCase() : 'FOR UPDATE';
    throw refuse(`${words} is not allowed: a query here may not lock rows`);
  }
  if (record.type === 'function' || record.type === 'aggr_func') {
    const name = mysqlFunctionName(record.name);
    const denied = deniedFunction('mysql', name, mysqlArgumentCount(record.args));
    if (denied) throw refusedCall(name, denied.reason);
  }
  if (record.type === 'assign') {
    const left = record.left as { name?: unknown } | undefined;
    throw refuse(`@${String(left?.name ?? '')} := … is not allowed: a query here may not set variables, which stay on the session`);
  }
  if (record.type === 'var' && record.prefix === '@@') {
    const members = Array.isArray(record.members) ? record.members.map(String) : [];
    throw refuse(`@@${[String(record.name ?? ''), ...members].join('.')} is not allowed: it reads settings of the database server`);
  }
  for (const value of Object.values(record)) checkMysqlTree(value);
}

async function checkMysql(parser: MysqlParser, text: string): Promise<string> {
  const statement = parseMysql(parser, text);
  checkMysqlTree(statement);
  const printed = parser.sqlify(statement, MYSQL_OPTIONS);
  // The text that runs is read once more: it must parse to a query that passes, and print the same.
  let again: Record<string, unknown> | undefined;
  try {
    again = parseMysql(parser, printed);
  } catch {
    again = undefined;
  }
  if (!again) throw refuse(NOT_REPRINTABLE);
  checkMysqlTree(again);
  if (parser.sqlify(again, MYSQL_OPTIONS) !== printed) throw refuse(NOT_REPRINTABLE);
  return printed;
}
