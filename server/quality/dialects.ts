import type { Dialect } from '../connectors/types';

/**
 * What the quality SQL says differently on each dialect. Identifiers come quoted by the source
 * (`TableSource.quote`); values arrive as whatever a ValueWriter made of them (a placeholder
 * when the statement runs, a literal when it is shown), never pasted in by hand.
 *
 * Comparisons and patterns are the source's own: on MySQL and MariaDB, REGEXP and IN follow the
 * column's collation (without case by default); PostgreSQL's `~` and `IN` are exact.
 */
export interface QualityDialect {
  /** A value written so that the source compares it as a number, whatever the column's type. */
  asNumber(value: string): string;
  /** A column read as text, for patterns and lengths. */
  asText(column: string): string;
  /** Whether `text` matches the regular expression `pattern`. */
  matches(text: string, pattern: string): string;
  /** Seconds from `timestamp` to the source's own clock, read in the same statement. */
  secondsUntilNow(timestamp: string): string;
  /** A value as a literal of this dialect: for showing a statement, never for running one. */
  literal(value: string | number): string;
  /** The numbered placeholder of a statement's `position`-th value (1-based). */
  placeholder(position: number): string;
  /**
   * The rows meeting `condition`, where the dialect has a cheaper form than
   * `sum(case when … then 1 else 0 end)` (which every dialect reads, and is used otherwise).
   */
  countWhere?(condition: string): string;
}

const postgres: QualityDialect = {
  // Untyped, $1 would take the column's type: a bound of 0.5 would then be rejected by an integer column.
  asNumber: (value) => `cast(${value} as numeric)`,
  asText: (column) => `cast(${column} as text)`,
  matches: (text, pattern) => `${text} ~ ${pattern}`,
  secondsUntilNow: (timestamp) => `extract(epoch from (now() - ${timestamp}))`,
  literal: (value) => (typeof value === 'number' ? String(value) : `'${value.replace(/'/g, "''")}'`),
  placeholder: (position) => `$${position}`,
  // An aggregate FILTER counts without adding up a CASE per row: a fifth less time per rule over a big table.
  countWhere: (condition) => `count(*) filter (where ${condition})`,
};

const mysql: QualityDialect = {
  asNumber: (value) => value,
  asText: (column) => column,
  matches: (text, pattern) => `${text} REGEXP ${pattern}`,
  secondsUntilNow: (timestamp) => `timestampdiff(second, ${timestamp}, current_timestamp)`,
  // MySQL reads a backslash in a string literal as an escape.
  literal: (value) => (typeof value === 'number' ? String(value) : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`),
  placeholder: () => '?',
};

export const QUALITY_DIALECTS: Record<Dialect, QualityDialect> = { postgres, mysql };

/** Writes a value into a statement being built: as a placeholder whose value is kept, or as a literal. */
export type ValueWriter = (value: string | number) => string;

/** A statement built once to run (placeholders and their values) and once to show (literals). */
export interface BuiltStatement {
  sql: string;
  params: Array<string | number>;
  /** The same statement with its values written in, as a result's `query`. */
  shown: string;
}

/** Builds a statement with `build` twice, so the statement shown is the statement run. */
export function buildStatement(dialect: QualityDialect, build: (value: ValueWriter) => string): BuiltStatement {
  const params: Array<string | number> = [];
  const sql = build((value) => {
    params.push(value);
    return dialect.placeholder(params.length);
  });
  return { sql, params, shown: build(dialect.literal) };
}
