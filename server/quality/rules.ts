import type { QualityFunction, QualitySeverity } from '../../common/schemas/quality';

/** What the quality engine takes and answers (docs/api/tables.md, "Runs and results"). */

/** A rule as stored: `params` as PARAMS_OF[functionName] parsed them. */
export interface RuleToRun {
  id: string;
  name: string;
  functionName: QualityFunction;
  columnName: string | null;
  params: unknown;
  severity: QualitySeverity;
  tolerance: number;
  /** Set: the rule reads this percent of the table's pages, and its results are estimates. */
  samplePercent?: number | null;
}

export type ResultStatus = 'passed' | 'warned' | 'failed' | 'error';

/** "A result" of docs/api/tables.md, one per rule of a run. */
export interface ResultRow {
  ruleId: string;
  ruleName: string;
  functionName: QualityFunction;
  columnName: string | null;
  severity: QualitySeverity;
  status: ResultStatus;
  /** What was measured, as text: the failing rows, the row count, the newest timestamp. */
  observed: string | null;
  rowsScanned: number | null;
  /** Row rules only. */
  rowsFailed: number | null;
  /** rowsFailed / rowsScanned, from 0 to 1; row rules only. */
  failedShare: number | null;
  /** Up to 20 failing rows (failed row rules only), `pii` columns masked. */
  sample: Array<Record<string, unknown>>;
  /** The statement that measured the rule, with its values written in. */
  query: string;
  /** What a person reads: what was found against what was allowed, or why the rule could not be measured. */
  message: string;
  /** The watermark column its rows were read by; null when the table has none, or for a whole-table rule. */
  coveredColumn: string | null;
  /** The watermark value its rows were read after; null: every row. */
  coveredAfter: string | null;
  /** The greatest watermark when the run started, where the rule's next incremental run starts. */
  coveredUpTo: string | null;
  /** Measured on this percent of the table's pages: an estimate. */
  samplePercent: number | null;
  /** What would make the check cheaper: an index, as the statement that creates it. */
  advice: string | null;
  startedAt: Date;
  endedAt: Date;
}

/** A run's outcome. `error` means the run as a whole could not be measured: it then holds no results. */
export interface RunOutcome {
  status: ResultStatus;
  error?: string;
  results: ResultRow[];
}

/** A column of the table's dictionary, as the engine needs it: `pii` values are masked in samples. */
export interface DictionaryColumn {
  name: string;
  sensitivity: string;
}
