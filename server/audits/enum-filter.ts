import { z } from 'zod';

/**
 * A filter on a column with a fixed set of values (status…): one value or a list, each checked,
 * so that a misspelt value is a 400 naming the field and the allowed values rather than a
 * filter that silently finds nothing. Empty means no filter.
 */
export function enumChoiceFilter<const V extends readonly [string, ...string[]]>(values: V) {
  const allowed = `must be one of ${values.join(', ')}`;
  return z
    .unknown()
    .optional()
    .transform((value, ctx): Array<V[number]> => {
      if (value == null || value === '') return [];
      const list: unknown[] = Array.isArray(value) ? value : [value];
      if (list.length > values.length * 4) {
        ctx.addIssue({ code: 'custom', message: `may hold at most ${values.length * 4} values` });
        return z.NEVER;
      }
      const bad = list.find((v) => v !== '' && !values.includes(v as string));
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `${allowed} (not ${JSON.stringify(bad)?.slice(0, 40)})` });
        return z.NEVER;
      }
      return list.filter((v): v is V[number] => v !== '');
    });
}
