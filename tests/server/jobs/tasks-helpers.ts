import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { TaskType } from '../../../common/schemas/workflows';
import { jobRuns, workflows } from '../../../server/db/schema';
import { withTenant } from '../../../server/db/tenant-scope';
import { createTaskExecutors } from '../../../server/jobs/tasks';
import type { TaskContext, TaskDefinition, TaskOutcome } from '../../../server/jobs/types';
import type { TestServer } from '../harness';
import { call } from '../helpers';

/**
 * What the task tests share: connections, pairs and workflows made for a test server, and a
 * TaskContext that keeps what a task reports (log lines, progress, the commit) the way a runner
 * would show them, with an AbortController standing for cancel.
 */

export interface RecordingContext extends TaskContext {
  lines: string[];
  progressed: Array<{ rowsRead?: number; rowsWritten?: number }>;
  commits: string[];
  controller: AbortController;
}

export function recordingContext(
  server: TestServer,
  workflow: { id: string; name: string; runId: string },
  onProgress?: (counts: { rowsRead?: number; rowsWritten?: number }, context: RecordingContext) => void,
): RecordingContext {
  const controller = new AbortController();
  const context: RecordingContext = {
    companyId: server.company.companyId,
    runId: workflow.runId,
    workflowId: workflow.id,
    workflowName: workflow.name,
    userId: server.company.adminUserId,
    signal: controller.signal,
    lines: [],
    progressed: [],
    commits: [],
    controller,
    async log(line) {
      context.lines.push(line);
    },
    async progress(counts) {
      context.progressed.push({ ...counts });
      onProgress?.(counts, context);
    },
    async setGitCommit(commit) {
      context.commits.push(commit);
    },
  };
  return context;
}

/** The executors as the server would make them. */
export function executorsOf(server: TestServer) {
  const { db, secrets, connectors, mailer, config } = server.app.ctx;
  return createTaskExecutors({ db, secrets, connectors, mailer, config });
}

/** Runs one task the way a runner does: as the run's company. */
export function runTask(server: TestServer, task: TaskDefinition, context: TaskContext): Promise<TaskOutcome> {
  return withTenant(context.companyId, () => executorsOf(server)[task.type as TaskType](task, context));
}

export async function createConnection(server: TestServer, token: string, body: Record<string, unknown>): Promise<string> {
  const made = await call(server, 'POST', '/connections', { token, body: { isSource: true, isDestination: true, ...body } });
  expect(made.statusCode, made.body).toBe(201);
  return made.json().data.id as string;
}

export async function createPair(server: TestServer, token: string, sourceId: string, destinationId: string): Promise<string> {
  const id = crypto.randomUUID();
  const made = await call(server, 'PUT', `/source/destination/${id}`, { token, body: { sourceId, destinationId } });
  expect(made.statusCode, made.body).toBe(201);
  return id;
}

/** A workflow row and a running job run of it, as the runner would have them when it calls a task. */
export async function createWorkflow(
  server: TestServer,
  fields: { name: string; pairId: string; repositoryConnectionId?: string },
): Promise<{ id: string; name: string; runId: string }> {
  const companyId = server.company.companyId;
  const [workflow] = await server.db
    .insert(workflows)
    .values({
      companyId,
      name: fields.name,
      pairId: fields.pairId,
      repositoryConnectionId: fields.repositoryConnectionId ?? null,
      createdBy: server.company.adminUserId,
    })
    .returning({ id: workflows.id });
  const [run] = await server.db
    .insert(jobRuns)
    .values({ companyId, workflowId: workflow!.id, trigger: 'manual', status: 'running', startedAt: new Date() })
    .returning({ id: jobRuns.id });
  return { id: workflow!.id, name: fields.name, runId: run!.id };
}

/** How a task failed: its message (a task that succeeds fails the test). */
export async function failureOf(work: Promise<unknown>): Promise<string> {
  const outcome = await work.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, 'the task should have failed').toBeInstanceOf(Error);
  return (outcome as Error).message;
}
