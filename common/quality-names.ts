import { RULE_NAME_MAX, type QualityFunction } from './schemas/quality';

/**
 * The name a data-quality rule is given until someone names it: what it checks, on which column
 * ("amount not null", "email matches pattern", "row count between 1 and 100"). The console fills
 * the rule dialog's name with it while the name is not one of the user's own; a server may name a
 * rule made without a name the same way.
 */

export interface RuleNameParts {
  functionName: QualityFunction | '' | null | undefined;
  columnName?: string | null;
  params?: Readonly<Record<string, unknown>> | null;
}

const given = (value: unknown): value is string | number =>
  (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.trim() !== '');

/** "between 1 and 5", "at least 1", "at most 5", or '' without bounds. */
function boundsText(min: unknown, max: unknown): string {
  if (given(min) && given(max)) return `between ${String(min).trim()} and ${String(max).trim()}`;
  if (given(min)) return `at least ${String(min).trim()}`;
  if (given(max)) return `at most ${String(max).trim()}`;
  return '';
}

/** "90 minutes", "2 hours", "3 days": the largest unit that says it exactly. */
function ageText(minutes: number): string {
  const [amount, unit] = minutes % 1440 === 0 ? [minutes / 1440, 'day'] : minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

/** Up to three values of a set, quoted as they are: `one of GB, US, NL`; more read as "in set". */
function setText(values: unknown): string {
  const list = Array.isArray(values) ? values.map((value) => String(value).trim()).filter(Boolean) : [];
  return list.length > 0 && list.length <= 3 ? `one of ${list.join(', ')}` : 'in set';
}

function checkText(parts: RuleNameParts): string {
  const params = parts.params ?? {};
  switch (parts.functionName) {
    case 'not_null':
      return 'not null';
    case 'unique':
      return 'unique';
    case 'value_between':
      return boundsText(params.min, params.max) || 'in range';
    case 'regex_match':
      return 'matches pattern';
    case 'in_set':
      return setText(params.values);
    case 'length_between': {
      const bounds = boundsText(params.min, params.max);
      return bounds ? `length ${bounds}` : 'length in range';
    }
    case 'freshness':
      return typeof params.maxAgeMinutes === 'number' && params.maxAgeMinutes > 0
        ? `at most ${ageText(params.maxAgeMinutes)} old`
        : 'fresh';
    default:
      return '';
  }
}

/** The suggested name, or '' when there is nothing to name yet (no kind, or a column kind without its column). */
export function suggestRuleName(parts: RuleNameParts): string {
  let name: string;
  if (parts.functionName === 'row_count_between') {
    const bounds = boundsText(parts.params?.min, parts.params?.max);
    name = bounds ? `row count ${bounds}` : 'row count';
  } else if (parts.functionName === 'custom_sql') {
    name = 'custom SQL check';
  } else {
    const column = parts.columnName?.trim();
    const check = checkText(parts);
    if (!column || !check) return '';
    name = `${column} ${check}`;
  }
  return name.length > RULE_NAME_MAX ? `${name.slice(0, RULE_NAME_MAX - 1)}…` : name;
}
