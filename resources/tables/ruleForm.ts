import type { FieldErrors } from 'react-hook-form';
import {
  FUNCTION_TYPE_OF,
  JUDGES_ROWS,
  QUALITY_FUNCTIONS,
  qualityRuleBody,
  SAMPLEABLE,
  type QualityFunction,
  type QualityRuleBody,
  type QualitySeverity,
} from '../../common/schemas/quality';
import { suggestRuleName } from '../../common/quality-names';
import type { QualityRule } from './types';

/**
 * The rule form's values and the body they make. The form is flat (one input per param of the
 * chosen kind); the body is checked by the shared `qualityRuleBody`, whose messages land on the
 * inputs they are about.
 */

export const AGE_UNITS = { minutes: 1, hours: 60, days: 24 * 60 } as const;
export type AgeUnit = keyof typeof AGE_UNITS;

export interface RuleFormValues {
  id?: string;
  name: string;
  functionName: QualityFunction | '';
  columnName?: string | null;
  min?: string | number | null;
  max?: string | number | null;
  pattern?: string | null;
  values?: string[];
  sql?: string | null;
  maxAge?: number | null;
  maxAgeUnit?: AgeUnit;
  severity: QualitySeverity;
  /** The share of rows allowed to fail, in percent (the body's tolerance is 0 to 1). */
  tolerancePercent?: number | null;
  /** Empty: every row; else the percent of the table's pages the rule reads (its results are estimates). */
  samplePercent?: number | string | null;
  isActive: boolean;
}

export const NEW_RULE: RuleFormValues = {
  name: '',
  functionName: 'not_null',
  columnName: null,
  values: [],
  maxAgeUnit: 'hours',
  severity: 'fail',
  tolerancePercent: 0,
  isActive: true,
};

export function isFunction(value: unknown): value is QualityFunction {
  return typeof value === 'string' && (QUALITY_FUNCTIONS as readonly string[]).includes(value);
}

export const needsColumn = (fn: QualityFunction | '') => isFunction(fn) && FUNCTION_TYPE_OF[fn] === 'column';
export const hasTolerance = (fn: QualityFunction | '') => isFunction(fn) && JUDGES_ROWS[fn];
export const canSample = (fn: QualityFunction | '') => isFunction(fn) && SAMPLEABLE[fn];

/** A maximum age in the largest unit that says it exactly. */
export function ageOf(minutes: number): { maxAge: number; maxAgeUnit: AgeUnit } {
  if (minutes % AGE_UNITS.days === 0) return { maxAge: minutes / AGE_UNITS.days, maxAgeUnit: 'days' };
  if (minutes % AGE_UNITS.hours === 0) return { maxAge: minutes / AGE_UNITS.hours, maxAgeUnit: 'hours' };
  return { maxAge: minutes, maxAgeUnit: 'minutes' };
}

/** The form of an existing rule. */
export function ruleFormValues(rule: QualityRule): RuleFormValues {
  const params = (rule.params ?? {}) as Record<string, unknown>;
  const bound = (value: unknown) => (value === undefined || value === null ? null : (value as string | number));
  return {
    ...NEW_RULE,
    id: rule.id,
    name: rule.name,
    functionName: rule.functionName,
    columnName: rule.columnName,
    min: bound(params.min),
    max: bound(params.max),
    pattern: typeof params.pattern === 'string' ? params.pattern : null,
    values: Array.isArray(params.values) ? params.values.map(String) : [],
    sql: typeof params.sql === 'string' ? params.sql : null,
    ...(typeof params.maxAgeMinutes === 'number' ? ageOf(params.maxAgeMinutes) : {}),
    severity: rule.severity,
    tolerancePercent: Math.round((rule.tolerance ?? 0) * 10_000) / 100,
    samplePercent: rule.samplePercent ?? null,
    isActive: rule.isActive,
  };
}

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A value_between bound as typed: a number when it reads as one, else text (an ISO date). */
function textBound(value: unknown): string | number | undefined {
  if (blank(value)) return undefined;
  if (typeof value === 'number') return value;
  const text = String(value).trim();
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

function wholeBound(value: unknown): unknown {
  if (blank(value)) return undefined;
  return typeof value === 'number' ? value : Number.isNaN(Number(value)) ? value : Number(value);
}

function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined));
}

/** The params of the chosen kind, from its inputs only. */
export function paramsOf(values: RuleFormValues): Record<string, unknown> {
  switch (values.functionName) {
    case 'value_between':
      return withoutUndefined({ min: textBound(values.min), max: textBound(values.max) });
    case 'length_between':
    case 'row_count_between':
      return withoutUndefined({ min: wholeBound(values.min), max: wholeBound(values.max) });
    case 'regex_match':
      return { pattern: values.pattern ?? '' };
    case 'in_set':
      return { values: values.values ?? [] };
    case 'freshness':
      return withoutUndefined({
        maxAgeMinutes: blank(values.maxAge) ? undefined : Number(values.maxAge) * AGE_UNITS[values.maxAgeUnit ?? 'minutes'],
      });
    case 'custom_sql':
      return { sql: values.sql ?? '' };
    default:
      return {};
  }
}

/** The name the form's check and column suggest (common/quality-names.ts). */
export function suggestedNameOf(values: Partial<RuleFormValues>): string {
  const fn = values.functionName ?? '';
  return suggestRuleName({
    functionName: fn,
    columnName: needsColumn(fn) ? values.columnName : null,
    params: paramsOf({ ...NEW_RULE, ...values, functionName: fn } as RuleFormValues),
  });
}

/** The body of `POST /table/dataQuality/{tableId}`, before it is checked. */
export function ruleBodyOf(values: RuleFormValues): Record<string, unknown> {
  const fn = values.functionName;
  return withoutUndefined({
    id: values.id,
    name: values.name ?? '',
    functionName: fn,
    columnName: needsColumn(fn) ? values.columnName || undefined : undefined,
    params: paramsOf(values),
    severity: values.severity,
    tolerance: hasTolerance(fn) ? (blank(values.tolerancePercent) ? 0 : Number(values.tolerancePercent) / 100) : 0,
    // Left empty, or for a kind that cannot be sampled: every row (a rule saved without it reads every row again).
    samplePercent: canSample(fn) && !blank(values.samplePercent) ? Number(values.samplePercent) : undefined,
    isActive: values.isActive,
  });
}

/** Where a problem with a body field shows in the form (`params.min` → the min input, `tolerance` → the percentage). */
const FORM_FIELD_OF: Record<string, keyof RuleFormValues> = {
  name: 'name',
  functionName: 'functionName',
  columnName: 'columnName',
  severity: 'severity',
  tolerance: 'tolerancePercent',
  samplePercent: 'samplePercent',
  isActive: 'isActive',
  params: 'functionName',
  'params.min': 'min',
  'params.max': 'max',
  'params.pattern': 'pattern',
  'params.values': 'values',
  'params.sql': 'sql',
  'params.maxAgeMinutes': 'maxAge',
};

/** The inputs a server message may name, once said by the form's names. */
export const RULE_FORM_FIELDS: readonly string[] = [...new Set(Object.values(FORM_FIELD_OF))];

export function formFieldOf(bodyField: string): keyof RuleFormValues | undefined {
  return FORM_FIELD_OF[bodyField];
}

export type RuleCheck = { ok: true; body: QualityRuleBody } | { ok: false; errors: FieldErrors };

/**
 * The tolerance is typed in percent: its bounds are said in percent here (the shared rule, 0 to 1,
 * would read wrongly beside a percentage).
 */
function toleranceProblem(values: RuleFormValues): string | null {
  if (!hasTolerance(values.functionName) || blank(values.tolerancePercent)) return null;
  const percent = Number(values.tolerancePercent);
  return Number.isFinite(percent) && percent >= 0 && percent <= 100 ? null : 'resources.tables.quality.tolerance_range';
}

/** Checks the form's rule by the shared schema; each problem is put on the input it is about. */
export function checkRule(values: RuleFormValues): RuleCheck {
  const tolerance = toleranceProblem(values);
  const parsed = qualityRuleBody.safeParse(ruleBodyOf(values));
  if (parsed.success && !tolerance) return { ok: true, body: parsed.data };
  const errors: Record<string, { type: string; message: string }> = {};
  if (tolerance) errors.tolerancePercent = { type: 'range', message: tolerance };
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const path = issue.path.filter((part): part is string => typeof part === 'string').join('.');
    const field = formFieldOf(path) ?? 'functionName';
    errors[field] ??= { type: issue.code, message: issue.message };
  }
  return { ok: false, errors: errors as FieldErrors };
}
