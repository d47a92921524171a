import { z } from 'zod';
import { QUALITY_FUNCTIONS, QUALITY_SEVERITIES } from '../../schemas/quality';
import { listAnswer, timestamp } from '../answers';

/**
 * Data-quality rules, their runs and results as the tables area answers them (docs/api/tables.md,
 * "Data-quality rules" and "Runs and results").
 */

/** What a kind of rule looks at: a column, the whole table, or a query of its own. */
export const QUALITY_FUNCTION_TYPES = ['column', 'table', 'custom'] as const;

/**
 * What a run, or one rule in it, came to. A run is `passed` when every rule passed, `warned` when
 * a warn rule failed, `failed` when a fail rule failed, `error` when the source could not answer;
 * a rule's result is `error` when its query could not be measured. Runs are stored when they end,
 * so none is ever seen running.
 */
export const QUALITY_STATUSES = ['passed', 'warned', 'failed', 'error'] as const;

/** Who started a run: a person ("Run checks now") or a quality task of a workflow run. */
export const QUALITY_RUN_TRIGGERS = ['manual', 'workflow'] as const;

/** The newest result of a rule, as its row shows it. */
export const lastQualityResult = z.object({
  runId: z.string(),
  status: z.enum(QUALITY_STATUSES),
  /** The measured value (a count, a row count, an age in seconds…) as text. */
  observed: z.string().nullable(),
  rowsScanned: z.number().nullable(),
  rowsFailed: z.number().nullable(),
  /** rowsFailed / rowsScanned, 0 to 1. */
  failedShare: z.number().nullable(),
  /** Why it failed or could not be measured. */
  message: z.string().nullable(),
  /** Which rows it covered (see qualityResult). */
  coveredColumn: z.string().nullable(),
  coveredAfter: z.string().nullable(),
  /** Set: an estimate from a sample of this percent of the table's pages. */
  samplePercent: z.number().nullable(),
  startedAt: timestamp,
  endedAt: timestamp,
});

/** A data-quality rule of a table, with its newest result. */
export const qualityRuleRow = z.object({
  id: z.string(),
  tableId: z.string(),
  name: z.string(),
  /** Follows from `functionName`. */
  functionType: z.enum(QUALITY_FUNCTION_TYPES),
  functionName: z.enum(QUALITY_FUNCTIONS),
  /** Null for a table or custom rule. */
  columnName: z.string().nullable(),
  /** The kind's parameters (`{ min, max }`, `{ pattern }`, `{ values }`, `{ maxAgeMinutes }`, `{ sql }`, or `{}`). */
  params: z.record(z.string(), z.unknown()),
  /** What a failure makes of the run: `failed` or `warned`. */
  severity: z.enum(QUALITY_SEVERITIES),
  /** The share of rows allowed to fail (0 to 1). */
  tolerance: z.number(),
  /** Set: the rule reads this percent of the table's pages, and its results are estimates. */
  samplePercent: z.number().nullable(),
  isActive: z.boolean(),
  /** Null until the rule has run. */
  lastResult: lastQualityResult.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type QualityRule = z.infer<typeof qualityRuleRow>;

/** What one rule found in one run; the rule's name, kind, column and severity as they were then. */
export const qualityResult = z.object({
  runId: z.string(),
  ruleId: z.string(),
  ruleName: z.string(),
  functionName: z.enum(QUALITY_FUNCTIONS),
  columnName: z.string().nullable(),
  severity: z.enum(QUALITY_SEVERITIES),
  status: z.enum(QUALITY_STATUSES),
  /** The measured value (a count, a row count, an age in seconds…) as text. */
  observed: z.string().nullable(),
  rowsScanned: z.number().nullable(),
  rowsFailed: z.number().nullable(),
  failedShare: z.number().nullable(),
  /** Up to 20 failing rows, `pii` columns masked. */
  sample: z.array(z.record(z.string(), z.unknown())).nullable(),
  /** The SQL that measured it. */
  query: z.string().nullable(),
  message: z.string().nullable(),
  /** The table's watermark column its rows were read by; null for a table without one, or a whole-table rule. */
  coveredColumn: z.string().nullable(),
  /** The watermark value its rows were read after ("since …"); null: every row. */
  coveredAfter: z.string().nullable(),
  /** The greatest watermark when the run started: the rule's next incremental run reads the rows after it. */
  coveredUpTo: z.string().nullable(),
  /** Set: an estimate, measured on a sample of this percent of the table's pages (rowsScanned is the sample's size). */
  samplePercent: z.number().nullable(),
  /** What would make the check cheaper, with the statement that does it (an index). */
  advice: z.string().nullable(),
  startedAt: timestamp,
  endedAt: timestamp,
});
export type QualityResult = z.infer<typeof qualityResult>;

/** One evaluation of a table's rules, with a result per rule (none when the source could not answer). */
export const qualityRun = z.object({
  id: z.string(),
  tableId: z.string(),
  trigger: z.enum(QUALITY_RUN_TRIGGERS),
  status: z.enum(QUALITY_STATUSES),
  startedAt: timestamp,
  endedAt: timestamp.nullable(),
  /** Why the source could not answer. */
  error: z.string().nullable(),
  results: z.array(qualityResult),
});
export type QualityRun = z.infer<typeof qualityRun>;

/** `GET /table/dataQuality/{id}/{offset}/{limit}`, the search and the filter: a page of rules, newest first. */
export const qualityRuleListAnswer = listAnswer(qualityRuleRow);

/** A run as a table's list of runs shows it: without its results. */
export const qualityRunSummary = qualityRun.omit({ results: true });
export type QualityRunSummary = z.infer<typeof qualityRunSummary>;

/** `GET /table/quality/runs/{id}/{offset}/{limit}`: a page of a table's runs, newest first, and how many it has. */
export const qualityRunPage = z.object({ rows: z.array(qualityRunSummary), count: z.number().int() });

/** One failing row as the run kept it: column → value, `pii` columns masked. */
export const failingRow = z.record(z.string(), z.unknown());

/** `GET /table/quality/run/{id}/failingRows/{ruleId}/{offset}/{limit}`: a page of one rule's failing rows, and how many the run kept. */
export const failingRowsPage = z.object({ rows: z.array(failingRow), count: z.number().int() });

/** `{offset}` and `{limit}` of the pages above, as the path writes them. */
export const pageOffsetParam = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(10_000_000, 'is too large');
export const pageLimitParam = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(1000, 'must be at most 1000');

/** `GET /table/quality/run/{id}/failingRows/{ruleId}/csv`: every failing row the rule kept in the run. */
export const failingRowsCsvFile = {
  kind: 'file' as const,
  description: "One rule's failing rows of one run as CSV (`Content-Disposition: attachment`), `pii` columns masked",
  content: { 'text/csv': { schema: z.string() } },
};
