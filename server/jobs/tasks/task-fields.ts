import type { z } from 'zod';
import type { TaskDefinition } from '../types';

/**
 * A stored task's fields, checked by the schema the API took them with
 * (common/schemas/workflows.ts): a task stored before a change of its shape fails by saying what
 * is wrong rather than half-running.
 */
export function taskFields<Schema extends z.ZodType>(schema: Schema, task: TaskDefinition): z.output<Schema> {
  const parsed = schema.safeParse(task);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'task'}: ${issue.message}`);
  throw new Error(`Task "${task.name}" cannot run as it is stored: ${problems.join('; ')}`);
}

/** "1,234,567": counts in log lines and messages. */
export const count = (value: number) => value.toLocaleString('en-US');

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
