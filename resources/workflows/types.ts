import type { WorkflowTask } from '../../common/schemas/workflows';
import type { JobRunStatus } from '../job-runs/types';

export type Engine = 'local' | 'databricks';

/** A workflow as the server answers it (docs/api/workflows.md): the body's fields and what the server adds. */
export interface Workflow {
  id: string;
  /** The id to run it by (`POST /workflow/run/{jobId}`). */
  jobId: string;
  name: string;
  description: string | null;
  workspaceId: string | null;
  workspaceName: string | null;
  pairId: string;
  pairName: string | null;
  sourceId?: string | null;
  sourceName: string | null;
  destinationId?: string | null;
  destinationName: string | null;
  repositoryConnectionId: string | null;
  databricksConnectionId: string | null;
  databricksJobId: string | null;
  engine: Engine;
  tasks: WorkflowTask[];
  schedule: { cron: string; timezone: string } | null;
  retries: { max: number; backoffSeconds: number } | null;
  timeoutMinutes: number | null;
  concurrency: number | null;
  notifyOnFailure: { inApp: boolean; slackConnectionId?: string | null; emails?: string[] } | null;
  isActive: boolean;
  lastRun: { id: string; status: JobRunStatus; queuedAt?: string; endedAt?: string | null } | null;
  nextRunAt: string | null;
  createdBy: string | null;
  createdByName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `GET /workflow/connection/gitRepo/{id}`: a repository's branches and its files at a ref. */
export interface GitRepository {
  defaultBranch: string | null;
  branches: { name: string; commit: string }[];
  ref: string | null;
  commit: string | null;
  files: string[];
}

/** `POST /workflow/configure/{id}`: what checking the workflow against what it names found. */
export interface WorkflowCheck {
  ok: boolean;
  problems: { task: string | null; message: string }[];
}

/** A registered table as a quality task offers it. */
export interface TableChoice {
  id: string;
  name: string;
  connectionName: string | null;
}

/** A column of a copy's source table, as a merge's key or a watermark is picked among them. */
export interface ColumnChoice {
  name: string;
  dataType: string;
}
