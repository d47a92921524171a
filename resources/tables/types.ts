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
