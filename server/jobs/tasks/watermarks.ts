import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { copyWatermarks } from '../../db/schema';
import type { TaskContext } from '../types';

/**
 * Where each incremental copy task has read its source up to (table copy_watermarks): the
 * greatest value of its watermark column among the rows of its last successful run, as the
 * source's own text. It is written only once the destination holds the rows, so a run that fails
 * leaves it where it was and the next run reads the same rows again.
 */

/** What a copy task reads its watermark by: its source (a table, or a query's text) and its column. */
export interface WatermarkOf {
  taskId: string;
  source: string;
  column: string;
}

/** Where a run starts: after `value`, or from the first row with the reason why. */
export type WatermarkStart =
  { after: string; reason?: undefined } | { after: null; reason: 'first run' | 'full copy asked' | 'watermark changed' };

type Scope = Pick<TaskContext, 'companyId' | 'workflowId'>;

const rowOf = (scope: Scope, taskId: string) =>
  and(eq(copyWatermarks.companyId, scope.companyId), eq(copyWatermarks.workflowId, scope.workflowId), eq(copyWatermarks.taskId, taskId));

export async function readWatermark(db: Db, scope: Scope, of: WatermarkOf): Promise<WatermarkStart> {
  const [stored] = await db.select().from(copyWatermarks).where(rowOf(scope, of.taskId));
  if (!stored) return { after: null, reason: 'first run' };
  if (stored.fullCopy) return { after: null, reason: 'full copy asked' };
  // A watermark of another column, or of another source, says nothing of this one's rows.
  if (stored.source !== of.source || stored.columnName !== of.column) return { after: null, reason: 'watermark changed' };
  if (stored.value === null) return { after: null, reason: 'first run' };
  return { after: stored.value };
}

/** Moves the watermark after a successful run (and ends a full copy asked); `value` null keeps the one stored. */
export async function saveWatermark(
  db: Db,
  scope: Scope & Pick<TaskContext, 'runId'>,
  of: WatermarkOf,
  value: string | null,
): Promise<void> {
  await db
    .insert(copyWatermarks)
    .values({
      companyId: scope.companyId,
      workflowId: scope.workflowId,
      taskId: of.taskId,
      source: of.source,
      columnName: of.column,
      value,
      fullCopy: false,
      runId: scope.runId,
    })
    .onConflictDoUpdate({
      target: [copyWatermarks.companyId, copyWatermarks.workflowId, copyWatermarks.taskId],
      set: {
        source: of.source,
        columnName: of.column,
        // A run that read nothing new keeps the value it started from, unless it is of another column.
        value:
          value === null
            ? sql`case when ${copyWatermarks.columnName} = ${of.column} and ${copyWatermarks.source} = ${of.source} then ${copyWatermarks.value} end`
            : value,
        fullCopy: false,
        runId: scope.runId,
        updatedAt: new Date(),
      },
    });
}

/**
 * Asks the next run of each of `taskIds` to read every row once (a "full copy"): the watermark
 * stays as it was until that run succeeds. A task without a stored watermark reads every row anyway.
 */
export async function askFullCopy(db: Db, scope: Scope, taskIds: readonly string[]): Promise<number> {
  if (taskIds.length === 0) return 0;
  const updated = await db
    .update(copyWatermarks)
    .set({ fullCopy: true, updatedAt: new Date() })
    .where(
      and(
        eq(copyWatermarks.companyId, scope.companyId),
        eq(copyWatermarks.workflowId, scope.workflowId),
        inArray(copyWatermarks.taskId, [...taskIds]),
      ),
    )
    .returning({ taskId: copyWatermarks.taskId });
  return updated.length;
}
