import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

/**
 * PostgreSQL cannot store the NUL character in text or jsonb, nor half of a UTF-16 surrogate pair
 * (which is no character at all): a request carrying either would fail at the database, after
 * validation, as a 500 — or, on the node-postgres driver, have the half pair silently replaced.
 * So every string of a request (body, querystring and path parameters, keys included) is checked
 * once, before validation, and such a request is refused naming the field.
 */

const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problemOf(text: string): string | null {
  if (NUL.test(text)) return 'may not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'is not valid Unicode text (it holds half of a surrogate pair)';
  return null;
}

/** The first string in `value` that cannot be stored, with its path (`tasks.0.name`), or null. */
export function findUnstorableText(value: unknown): { path: string; problem: string } | null {
  // Iterative: a parsed body may nest thousands of levels deep within the body limit.
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      const problem = problemOf(current);
      if (problem) return { path, problem };
      continue;
    }
    if (typeof current !== 'object' || current === null || Buffer.isBuffer(current)) continue;
    for (const [key, child] of Object.entries(current)) {
      const childPath = path ? `${path}.${key}` : key;
      const problem = problemOf(key);
      if (problem) return { path: childPath, problem: `(a field name) ${problem}` };
      stack.push({ value: child, path: childPath });
    }
  }
  return null;
}

/** A field name as a message can show it: the offending characters written as escapes. */
const visible = (path: string) =>
  path.replace(/[\u0000\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);

/** Refuses, before validation, a request holding text that cannot be stored. */
export function registerStorableTextCheck(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    for (const [where, value] of [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ] as const) {
      const found = findUnstorableText(value);
      if (found) throw badRequest(`${visible(found.path) || where}: ${found.problem}`);
    }
  });
}
