import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { ZodType } from 'zod';

/**
 * react-hook-form validation by a zod schema (the same schema the server applies to the body).
 *
 * react-admin turns an emptied input into null; the shared schemas describe bodies, where an
 * optional field is absent rather than null, so nulls are checked as absent. The values the
 * form submits are the form's own, with the schema's transformations (trimming, defaults)
 * laid over them: the schema may know fewer fields than the record carries.
 */
export function zodResolver<T extends FieldValues = FieldValues>(schema: ZodType): Resolver<T> {
  return async (values) => {
    const result = await schema.safeParseAsync(withoutNulls(values));
    if (result.success) {
      const parsed = result.data && typeof result.data === 'object' ? (result.data as Record<string, unknown>) : {};
      return { values: { ...values, ...parsed } as T, errors: {} };
    }
    const errors: Record<string, unknown> = {};
    for (const issue of result.error.issues) {
      // A problem of the form as a whole (a refinement across fields, keys a strict schema does not
      // know) is the form's `root` error: it blocks the submit like any other and is shown with the
      // form's buttons (FormProblem).
      const path = issue.path.length === 0 ? ['root'] : issue.path.map(String);
      // The first problem of a field is the one shown (criteriaMode 'firstError').
      if (getAt(errors, path)) continue;
      setAt(errors, path, { type: issue.code, message: issue.message });
    }
    return { values: {}, errors: errors as FieldErrors<T> };
  };
}

function withoutNulls(values: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== null) result[key] = value;
  }
  return result;
}

function getAt(target: Record<string, unknown>, path: string[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
    target,
  );
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  path.slice(0, -1).forEach((key) => {
    if (!node[key] || typeof node[key] !== 'object') node[key] = {};
    node = node[key] as Record<string, unknown>;
  });
  node[path[path.length - 1]] = value;
}
