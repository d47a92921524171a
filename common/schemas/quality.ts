import { z } from 'zod';

/**
 * Data-quality rules as the API takes them (docs/api/tables.md, "Data-quality rules"), shared by
 * the server and the console's rule form. Whether a column exists is the server's to say (it
 * knows the table's dictionary); the shape of every field is checked here.
 */

export const QUALITY_FUNCTIONS = [
  'not_null',
  'unique',
  'value_between',
  'regex_match',
  'in_set',
  'length_between',
  'row_count_between',
  'freshness',
  'custom_sql',
] as const;
export type QualityFunction = (typeof QUALITY_FUNCTIONS)[number];

export type QualityFunctionType = 'column' | 'table' | 'custom';

export const FUNCTION_TYPE_OF: Record<QualityFunction, QualityFunctionType> = {
  not_null: 'column',
  unique: 'column',
  value_between: 'column',
  regex_match: 'column',
  in_set: 'column',
  length_between: 'column',
  row_count_between: 'table',
  freshness: 'column',
  custom_sql: 'custom',
};

/** Whether a kind judges rows (and so has a tolerance) rather than the table as a whole. */
export const JUDGES_ROWS: Record<QualityFunction, boolean> = {
  not_null: true,
  unique: true,
  value_between: true,
  regex_match: true,
  in_set: true,
  length_between: true,
  row_count_between: false,
  freshness: false,
  custom_sql: true,
};

/**
 * The kinds a rule may measure on a sample of the table's pages: those judging rows one by one.
 * unique is not among them (a sample cannot tell whether a value repeats elsewhere), nor custom
 * SQL (the company's query reads what it reads).
 */
export const SAMPLEABLE: Record<QualityFunction, boolean> = { ...JUDGES_ROWS, unique: false, custom_sql: false };

/** A sample's share of the table's pages, in percent. */
export const SAMPLE_PERCENT_MIN = 0.01;
export const SAMPLE_PERCENT_MAX = 100;

export const QUALITY_SEVERITIES = ['fail', 'warn'] as const;
export type QualitySeverity = (typeof QUALITY_SEVERITIES)[number];

export const RULE_NAME_MAX = 120;
export const PATTERN_MAX = 500;
export const IN_SET_MAX = 500;
export const CUSTOM_SQL_MAX = 10_000;
/** freshness: from one minute to ten years. */
export const MAX_AGE_MINUTES_MAX = 10 * 366 * 24 * 60;

const BOUND_MESSAGE = 'must be a number or an ISO date';
const NUMERIC_TEXT = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;

const isIsoDate = (value: string) => ISO_DATE.test(value) && !Number.isNaN(Date.parse(value));

/** A bound of value_between: a number (a number written as text becomes one), or an ISO date kept as written. */
const bound = z
  .union([z.number(), z.string().trim().max(40)], { error: BOUND_MESSAGE })
  .refine((value) => typeof value === 'number' || NUMERIC_TEXT.test(value) || isIsoDate(value), BOUND_MESSAGE)
  .transform((value) => (typeof value === 'string' && NUMERIC_TEXT.test(value) ? Number(value) : value));

/** min and max, at least one, min not above max (numbers compare as numbers, dates as dates). */
function boundsOf<Bound extends number | string>(rule: z.ZodType<Bound, unknown>) {
  return paramsObject({ min: rule.nullish(), max: rule.nullish() }).superRefine((value, ctx) => {
    const { min, max } = value as { min?: Bound | null; max?: Bound | null };
    if (min == null && max == null) ctx.addIssue({ code: 'custom', path: ['min'], message: 'give a min, a max or both' });
    if (min == null || max == null) return;
    if (typeof min !== typeof max)
      ctx.addIssue({ code: 'custom', path: ['max'], message: 'must be of the same kind as min: both numbers or both dates' });
    else if (compare(min, max) > 0) ctx.addIssue({ code: 'custom', path: ['min'], message: 'must not be above max' });
  });
}

function compare(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return Date.parse(String(a)) - Date.parse(String(b));
}

/** A rule's params: an object of exactly these keys; another key is named in the message. */
function paramsObject<Shape extends z.ZodRawShape>(shape: Shape) {
  return z
    .object(shape, {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `${issue.keys.map((key) => `"${key}"`).join(', ')} ${issue.keys.length === 1 ? 'is not a parameter' : 'are not parameters'} of this rule`
          : 'must be an object',
    })
    .strict();
}

const wholeBound = z.number({ error: 'must be a whole number' }).int('must be a whole number').min(0, 'must be at least 0');

/**
 * Whether a pattern uses what JavaScript regular expressions have and POSIX ones (PostgreSQL's,
 * MySQL's) do not: lookarounds, back-references, the \d \w \s \b classes. Escapes are read in
 * pairs and bracket expressions skipped, so `\\d` (a backslash, then d) and `[(?=]` are not taken for them.
 */
function usesNonPosixConstruct(pattern: string): boolean {
  let inBracket = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i];
    if (char === '\\') {
      if (!inBracket && /[dDwWsSbB1-9]/.test(pattern[i + 1] ?? '')) return true;
      i += 1;
    } else if (inBracket) {
      if (char === ']') inBracket = false;
    } else if (char === '[') {
      inBracket = true;
      // A ']' right after '[' or '[^' is a literal member, not the end.
      if (pattern[i + 1] === '^') i += 1;
      if (pattern[i + 1] === ']') i += 1;
    } else if (char === '(' && pattern[i + 1] === '?' && /[=!<]/.test(pattern[i + 2] ?? '')) {
      return true;
    }
  }
  return false;
}

export const regexPattern = z
  .string({ error: 'must be text' })
  .min(1, { error: 'is required', abort: true })
  .max(PATTERN_MAX, { error: `must be at most ${PATTERN_MAX} characters`, abort: true })
  .superRefine((pattern, ctx) => {
    try {
      new RegExp(pattern);
    } catch (err) {
      ctx.addIssue({
        code: 'custom',
        message: `not a valid regular expression: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`,
      });
      return;
    }
    if (usesNonPosixConstruct(pattern)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'not a valid regular expression: lookarounds, back-references and \\d \\w \\s \\b are not POSIX; use [0-9], [[:alnum:]_], [[:space:]]',
      });
    }
  });

/**
 * One SELECT or WITH statement: no second statement after a semicolon, no comments (which could
 * hide one). The source still runs it in a read-only transaction, which is the real guard.
 */
export const customSql = z
  .string({ error: 'must be text' })
  .trim()
  // abort: a blank or oversized text gets that one message, not also the statement check's.
  .min(1, { error: 'is required', abort: true })
  .max(CUSTOM_SQL_MAX, { error: `must be at most ${CUSTOM_SQL_MAX} characters`, abort: true })
  .refine((sql) => /^(select|with)\b/i.test(sql) && !/--|\/\*/.test(sql) && !/;\s*\S/.test(sql), 'must be one SELECT or WITH statement')
  .transform((sql) => sql.replace(/;\s*$/, ''));

const noParams = paramsObject({}).default({});

const PARAMS_SCHEMAS = {
  not_null: noParams,
  unique: noParams,
  value_between: boundsOf(bound),
  regex_match: paramsObject({ pattern: regexPattern }),
  in_set: paramsObject({
    values: z
      .array(
        z.union([z.string().max(200, 'each must be at most 200 characters'), z.number()], { error: 'each must be text or a number' }),
        {
          error: 'must be a list of values',
        },
      )
      .min(1, 'give at least one value')
      .max(IN_SET_MAX, `may hold at most ${IN_SET_MAX} values`),
  }),
  length_between: boundsOf(wholeBound),
  row_count_between: boundsOf(wholeBound),
  freshness: paramsObject({
    maxAgeMinutes: z
      .number({ error: 'must be a number of minutes' })
      .int('must be a whole number of minutes')
      .min(1, 'must be at least 1 minute')
      .max(MAX_AGE_MINUTES_MAX, 'must be at most ten years'),
  }),
  custom_sql: paramsObject({ sql: customSql }),
};

/** The params each kind takes, as PARAMS_OF parses them. */
export type QualityParams = { [F in QualityFunction]: z.output<(typeof PARAMS_SCHEMAS)[F]> };

export const PARAMS_OF: Record<QualityFunction, z.ZodType> = PARAMS_SCHEMAS;

/** The body of `POST /table/dataQuality/{tableId}`: the params are checked by the kind afterwards (qualityRuleBody). */
const ruleFields = z.object({
  id: z.uuid({ error: 'must be a valid id' }).optional(),
  name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(RULE_NAME_MAX, `must be at most ${RULE_NAME_MAX} characters`),
  functionName: z.enum(QUALITY_FUNCTIONS, { error: `must be one of ${QUALITY_FUNCTIONS.join(', ')}` }),
  columnName: z.string().trim().max(200, 'must be at most 200 characters').nullish(),
  params: z.unknown().optional(),
  severity: z.enum(QUALITY_SEVERITIES, { error: 'must be fail or warn' }).default('fail'),
  tolerance: z.coerce.number({ error: 'must be a number from 0 to 1' }).min(0, 'must be at least 0').max(1, 'must be at most 1').default(0),
  /** Set: the rule reads this percent of the table's pages, and its results are estimates. */
  samplePercent: z
    .number({ error: `must be a number from ${SAMPLE_PERCENT_MIN} to ${SAMPLE_PERCENT_MAX}` })
    .min(SAMPLE_PERCENT_MIN, `must be at least ${SAMPLE_PERCENT_MIN}`)
    .max(SAMPLE_PERCENT_MAX, `must be at most ${SAMPLE_PERCENT_MAX}`)
    .nullish(),
  isActive: z.boolean({ error: 'must be true or false' }).optional(),
});

export const qualityRuleBody = ruleFields.superRefine((rule, ctx) => {
  const type = FUNCTION_TYPE_OF[rule.functionName];
  if (type === 'column' && !rule.columnName)
    ctx.addIssue({ code: 'custom', path: ['columnName'], message: `is required for ${rule.functionName}` });
  if (type !== 'column' && rule.columnName)
    ctx.addIssue({ code: 'custom', path: ['columnName'], message: `must be empty for ${rule.functionName}` });
  if (!JUDGES_ROWS[rule.functionName] && rule.tolerance > 0)
    ctx.addIssue({ code: 'custom', path: ['tolerance'], message: `does not apply to ${rule.functionName}` });
  if (rule.samplePercent != null && !SAMPLEABLE[rule.functionName])
    ctx.addIssue({
      code: 'custom',
      path: ['samplePercent'],
      message:
        rule.functionName === 'unique'
          ? 'does not apply to unique: a sample cannot tell whether a value repeats elsewhere in the table'
          : `does not apply to ${rule.functionName}`,
    });
  const params = PARAMS_OF[rule.functionName].safeParse(rule.params ?? {});
  if (!params.success) {
    for (const issue of params.error.issues) ctx.addIssue({ ...issue, path: ['params', ...issue.path] } as never);
  }
});

export type QualityRuleBody = z.output<typeof ruleFields>;
