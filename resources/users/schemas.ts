import type { z } from 'zod';

/** The message the server answers for a taken username ("username: is already taken"). */
export const USERNAME_TAKEN = 'is already taken';

/**
 * A form schema that also refuses a taken username: the shared rules first (the refinement only
 * runs on an otherwise valid body), then the server's answer. The account's current name is its
 * own and is not checked.
 */
export function withUsernameCheck<T extends z.ZodType<{ username?: string | null }>>(
  schema: T,
  isFree: (name: string) => Promise<boolean>,
  current?: string | null,
): T {
  const own = current?.toLowerCase() ?? null;
  return schema.superRefine(async (values, ctx) => {
    const name = values.username;
    if (!name || name === own) return;
    let free: boolean;
    try {
      free = await isFree(name);
    } catch {
      // The server checks again when the form is saved; an unanswered check does not block.
      return;
    }
    if (!free) ctx.addIssue({ code: 'custom', path: ['username'], message: USERNAME_TAKEN });
  }) as T;
}
