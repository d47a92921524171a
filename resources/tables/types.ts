import type { ConnectionType } from '../../common/connections';
import type { QualityFunction, QualityFunctionType, QualitySeverity } from '../../common/schemas/quality';
import type { Sensitivity } from '../../common/schemas/tables';

export type RunStatus = 'passed' | 'warned' | 'failed' | 'error';

/** A registered table as the server answers it (docs/api/tables.md). */
export interface DataTable {
  id: string;
  name: string;
  description: string | null;
  /** The endpoint of the connection it was registered from. */
  endpoint: string;
  connectionId: string;
  connectionName: string | null;
  connectionType: ConnectionType | null;
  workspaceId: string | null;
  workspaceName: string | null;
  isActive: boolean;
  columnCount: number;
  describedCount: number;
  ruleCount: number;
  lastRun: { id: string; status: RunStatus; startedAt: string; endedAt: string | null } | null;
  discoveredAt: string | null;
  /** A timestamp, or an id that only grows: row rules read only the rows past their last result. Absent from servers without incremental checks. */
  watermarkColumn?: string | null;
  createdBy: string | null;
  createdByName: string | null;
  createdAt: string;
  updatedAt: string;
}

export { SENSITIVITIES, type Sensitivity } from '../../common/schemas/tables';

/** A data dictionary entry: one column of the table. */
export interface DictionaryEntry {
  name: string;
  position: number;
  dataType: string;
  nullable: boolean;
  description: string | null;
  businessName: string | null;
  sensitivity: Sensitivity;
  owner: string | null;
  /** False once the column is no longer in the source. */
  present: boolean;
  updatedAt: string | null;
  updatedByName: string | null;
}

/** What a person edits of an entry. */
export type EntryEdit = Partial<Pick<DictionaryEntry, 'description' | 'businessName' | 'sensitivity' | 'owner'>>;

export interface RuleResult {
  /** The run it belongs to (the server answers it; a rule's last result has it too). */
  runId?: string;
  ruleId: string;
  ruleName: string;
  functionName: QualityFunction;
  columnName: string | null;
  severity: QualitySeverity;
  status: RunStatus;
  observed: unknown;
  rowsScanned: number | null;
  rowsFailed: number | null;
  failedShare: number | null;
  /** Up to 20 failing rows, pii columns masked by the server. */
  sample: Record<string, unknown>[] | null;
  query: string | null;
  message: string | null;
  /** The watermark column its rows were read by (null: every row of a table without one). */
  coveredColumn?: string | null;
  /** The watermark value its rows were read after: "since …"; null: every row. */
  coveredAfter?: string | null;
  coveredUpTo?: string | null;
  /** Set: an estimate from a sample of this percent of the table's pages. */
  samplePercent?: number | null;
  /** What would make the check cheaper (an index), with the statement that does it. */
  advice?: string | null;
  startedAt: string;
  endedAt: string | null;
}

export interface QualityRule {
  id: string;
  tableId: string;
  name: string;
  functionType: QualityFunctionType;
  functionName: QualityFunction;
  columnName: string | null;
  params: Record<string, unknown> | null;
  severity: QualitySeverity;
  tolerance: number;
  /** Set: the rule reads this percent of the table's pages, and its results are estimates. */
  samplePercent?: number | null;
  isActive: boolean;
  lastResult: RuleResult | null;
  createdAt: string;
  updatedAt: string;
}

export interface QualityRunSummary {
  id: string;
  tableId: string;
  trigger: string;
  status: RunStatus;
  startedAt: string;
  endedAt: string | null;
  error: string | null;
}

export interface QualityRun extends QualityRunSummary {
  results: RuleResult[];
}

/** `POST /table/configure/{id}`: what reading the columns again changed (names, or counts). */
export interface ColumnsRefresh {
  added: string[] | number;
  removed: string[] | number;
  changed: string[] | number;
}

export interface UploadResult {
  updated: number;
  unchanged: number;
}
