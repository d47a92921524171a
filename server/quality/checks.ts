import type { QualityParams } from '../../common/schemas/quality';
import type { QualityDialect, ValueWriter } from './dialects';
import { outsideInWords, type Bounds } from './wording';

/**
 * How each column rule is measured in the table's one aggregate statement, and what a failing
 * row is for its sample. Nulls fail only not_null: every other condition is one SQL's three-valued
 * logic leaves unknown for a null, so `case when … then 1 else 0 end` counts it as passing and a
 * sample's `where` leaves it out.
 */

export interface CheckContext<Params> {
  /** The column, quoted by the source. */
  column: string;
  /** The table, qualified and quoted by the source. */
  table: string;
  params: Params;
  dialect: QualityDialect;
  value: ValueWriter;
  /**
   * The rows the rule covers, when not every row (an incremental check's new rows): a condition
   * written with `value` when called, so that it is called where it stands in the statement.
   */
  rows?: () => string;
}

/** A rule that judges rows: it counts the failing ones. */
export interface RowCheck<Params> {
  judges: 'rows';
  /** The aggregate expression that counts the failing rows. */
  countFailing(context: CheckContext<Params>): string;
  /** A statement reading up to `limit` failing rows. */
  sample(context: CheckContext<Params>, limit: number): string;
  /** What makes a row fail, in words: `email is null`. */
  describe(columnName: string, params: Params): string;
  /**
   * Measured by a statement of its own, run beside the table's aggregate on another connection. A
   * distinct count keeps PostgreSQL's plan on one core; inside the aggregate it would keep every
   * other rule there too, where alone they are read by a parallel plan.
   */
  ownStatement?: true;
}

/** freshness: the newest value of the column against the source's clock. */
export interface NewestCheck {
  judges: 'newest';
  /** The newest value, and its age in seconds by the source's own clock. */
  newest(context: CheckContext<unknown>): { newest: string; ageSeconds: string };
}

type ColumnKind = 'not_null' | 'unique' | 'value_between' | 'regex_match' | 'in_set' | 'length_between' | 'freshness';

/** The rows meeting a condition: the dialect's own form, or `sum(case when <condition> then 1 else 0 end)`. */
const countWhere = (dialect: QualityDialect, condition: string) =>
  dialect.countWhere ? dialect.countWhere(condition) : `sum(case when ${condition} then 1 else 0 end)`;

/** Failing rows: those meeting `condition`, among the rows covered. */
const sampleWhere = (context: CheckContext<unknown>, condition: string, limit: number) =>
  `select * from ${context.table} where ${condition}${context.rows ? ` and ${context.rows()}` : ''} limit ${limit}`;

/** A row rule defined by the condition its failing rows meet. */
function conditionCheck<Params>(
  failing: (context: CheckContext<Params>) => string,
  describe: RowCheck<Params>['describe'],
): RowCheck<Params> {
  return {
    judges: 'rows',
    countFailing: (context) => countWhere(context.dialect, failing(context)),
    sample: (context, limit) => sampleWhere(context, failing(context), limit),
    describe,
  };
}

/** `measure < min or measure > max`, for the bounds given. */
function outsideBounds(measure: string, bounds: Bounds, write: (bound: number | string) => string): string {
  const parts: string[] = [];
  if (bounds.min != null) parts.push(`${measure} < ${write(bounds.min)}`);
  if (bounds.max != null) parts.push(`${measure} > ${write(bounds.max)}`);
  return parts.length === 1 ? parts[0]! : `(${parts.join(' or ')})`;
}

const textLength = (context: CheckContext<unknown>) => `char_length(${context.dialect.asText(context.column)})`;

export const COLUMN_CHECKS: { [K in Exclude<ColumnKind, 'freshness'>]: RowCheck<QualityParams[K]> } & { freshness: NewestCheck } = {
  not_null: {
    judges: 'rows',
    countFailing: ({ column }) => `count(*) - count(${column})`,
    sample: (context, limit) => sampleWhere(context, `${context.column} is null`, limit),
    describe: (name) => `${name} is null`,
  },
  unique: {
    judges: 'rows',
    ownStatement: true,
    // Rows that repeat an earlier row's value: rows with a value, less the distinct values.
    countFailing: ({ column }) => `count(${column}) - count(distinct ${column})`,
    // Every row of a repeated value, side by side; of an incremental check, the values of the new rows repeated anywhere.
    sample: ({ table, column, rows }, limit) =>
      `select * from ${table} where ${column} in (select ${column} from ${table} where ${
        rows ? `${column} in (select ${column} from ${table} where ${rows()})` : `${column} is not null`
      } group by ${column} having count(*) > 1) order by ${column} limit ${limit}`,
    describe: (name) => `${name} repeats the value of an earlier row`,
  },
  value_between: conditionCheck(
    ({ column, params, dialect, value }) =>
      // A number is compared as one; a date is left for the source to read as the column's own type.
      outsideBounds(column, params, (bound) => (typeof bound === 'number' ? dialect.asNumber(value(bound)) : value(bound))),
    (name, params) => `${name} is ${outsideInWords(params)}`,
  ),
  regex_match: conditionCheck(
    ({ column, params, dialect, value }) =>
      `not (${dialect.matches(dialect.asText(column), value(dialect.pattern ? dialect.pattern(params.pattern) : params.pattern))})`,
    (name, params) => `${name} does not match ${params.pattern}`,
  ),
  in_set: conditionCheck(
    ({ column, params, value }) => `${column} not in (${params.values.map((allowed) => value(allowed)).join(', ')})`,
    (name, params) =>
      `${name} is not one of ${params.values.slice(0, 10).join(', ')}${params.values.length > 10 ? `, … (${params.values.length} values)` : ''}`,
  ),
  length_between: conditionCheck(
    (context) => outsideBounds(textLength(context), context.params, (bound) => context.value(bound)),
    (name, params) => `the length of ${name} is ${outsideInWords(params)}`,
  ),
  freshness: {
    judges: 'newest',
    newest: ({ column, dialect }) => ({ newest: `max(${column})`, ageSeconds: dialect.secondsUntilNow(`max(${column})`) }),
  },
};
