import { describe, expect, it } from 'vitest';
import { PARAMS_OF, qualityRuleBody, QUALITY_FUNCTIONS } from '../../../common/schemas/quality';

/**
 * The rule body as the API and the console's form check it (docs/api/tables.md, "Data-quality
 * rules"): each problem is a `field: message` line, the way a 400 answers it.
 */

function problemsOf(body: unknown): string[] {
  const parsed = qualityRuleBody.safeParse(body);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

const rule = (functionName: string, params: unknown, extra: Record<string, unknown> = {}) => ({
  name: 'A rule',
  functionName,
  columnName: ['row_count_between', 'custom_sql'].includes(functionName) ? undefined : 'email',
  params,
  ...extra,
});

describe('data-quality rule body', () => {
  it('takes a rule of every kind with its params, severity fail and tolerance 0 by default', () => {
    const valid: Record<string, unknown> = {
      not_null: undefined,
      unique: {},
      value_between: { min: 0, max: 100 },
      regex_match: { pattern: '^[^@]+@[^@]+$' },
      in_set: { values: ['paid', 'new', 3] },
      length_between: { min: 1, max: 80 },
      row_count_between: { min: 1000 },
      freshness: { maxAgeMinutes: 60 },
      custom_sql: { sql: 'select * from orders where total_amount < 0;' },
    };
    expect(Object.keys(valid).sort()).toEqual([...QUALITY_FUNCTIONS].sort());
    for (const [functionName, params] of Object.entries(valid)) {
      const parsed = qualityRuleBody.safeParse(rule(functionName, params));
      expect(parsed.success, `${functionName}: ${problemsOf(rule(functionName, params)).join('; ')}`).toBe(true);
      expect(parsed.data).toMatchObject({ severity: 'fail', tolerance: 0 });
    }
  });

  it('names the rule fields that are missing or wrong', () => {
    expect(problemsOf({ functionName: 'not_null', columnName: 'email' })).toEqual(['name: is required']);
    expect(problemsOf(rule('no_such_kind', {}))).toEqual([
      'functionName: must be one of not_null, unique, value_between, regex_match, in_set, length_between, row_count_between, freshness, custom_sql',
    ]);
    expect(problemsOf(rule('not_null', {}, { severity: 'fatal' }))).toEqual(['severity: must be fail or warn']);
    expect(problemsOf(rule('not_null', {}, { tolerance: 1.5 }))).toEqual(['tolerance: must be at most 1']);
    expect(problemsOf(rule('not_null', {}, { tolerance: -0.1 }))).toEqual(['tolerance: must be at least 0']);
    expect(problemsOf(rule('not_null', {}, { name: 'x'.repeat(121) }))).toEqual(['name: must be at most 120 characters']);
  });

  it('wants a column for column rules and none for table and custom rules', () => {
    expect(problemsOf({ name: 'r', functionName: 'unique', params: {} })).toEqual(['columnName: is required for unique']);
    expect(problemsOf({ name: 'r', functionName: 'row_count_between', columnName: 'email', params: { min: 1 } })).toEqual([
      'columnName: must be empty for row_count_between',
    ]);
    expect(problemsOf({ name: 'r', functionName: 'custom_sql', columnName: 'email', params: { sql: 'select 1' } })).toEqual([
      'columnName: must be empty for custom_sql',
    ]);
  });

  it('has no tolerance for the rules that judge the table rather than rows', () => {
    expect(problemsOf(rule('freshness', { maxAgeMinutes: 5 }, { tolerance: 0.1 }))).toEqual(['tolerance: does not apply to freshness']);
    expect(problemsOf(rule('row_count_between', { min: 1 }, { tolerance: 0.1 }))).toEqual([
      'tolerance: does not apply to row_count_between',
    ]);
    expect(problemsOf(rule('not_null', {}, { tolerance: 0.1 }))).toEqual([]);
  });

  describe('bounds', () => {
    it('want a min, a max or both, min not above max', () => {
      expect(problemsOf(rule('value_between', {}))).toEqual(['params.min: give a min, a max or both']);
      expect(problemsOf(rule('value_between', { min: 10, max: 1 }))).toEqual(['params.min: must not be above max']);
      expect(problemsOf(rule('length_between', { min: 10, max: 1 }))).toEqual(['params.min: must not be above max']);
      expect(problemsOf(rule('row_count_between', { min: 10, max: 1 }))).toEqual(['params.min: must not be above max']);
      expect(problemsOf(rule('value_between', { min: '2024-06-01', max: '2024-01-01' }))).toEqual(['params.min: must not be above max']);
      expect(problemsOf(rule('value_between', { min: '2024-01-01', max: '2024-06-01T12:00:00Z' }))).toEqual([]);
      expect(problemsOf(rule('value_between', { min: null, max: 5 }))).toEqual([]);
    });

    it('take numbers or ISO dates, a number written as text becoming a number', () => {
      expect(problemsOf(rule('value_between', { min: 'soon' }))).toEqual(['params.min: must be a number or an ISO date']);
      expect(problemsOf(rule('value_between', { max: true }))).toEqual(['params.max: must be a number or an ISO date']);
      expect(problemsOf(rule('value_between', { min: 5, max: '2024-01-01' }))).toEqual([
        'params.max: must be of the same kind as min: both numbers or both dates',
      ]);
      expect(PARAMS_OF.value_between.parse({ min: ' 2.5 ', max: '10' })).toEqual({ min: 2.5, max: 10 });
      expect(PARAMS_OF.value_between.parse({ min: '2024-01-01' })).toEqual({ min: '2024-01-01' });
    });

    it('of lengths and row counts are whole numbers from 0', () => {
      expect(problemsOf(rule('length_between', { min: 1.5 }))).toEqual(['params.min: must be a whole number']);
      expect(problemsOf(rule('length_between', { min: -1 }))).toEqual(['params.min: must be at least 0']);
      expect(problemsOf(rule('row_count_between', { max: '10' }))).toEqual(['params.max: must be a whole number']);
    });

    it('name a parameter the rule does not have', () => {
      expect(problemsOf(rule('value_between', { min: 1, maximum: 5 }))).toEqual(['params: "maximum" is not a parameter of this rule']);
      expect(problemsOf(rule('not_null', { strict: true }))).toEqual(['params: "strict" is not a parameter of this rule']);
      expect(problemsOf(rule('regex_match', 'abc'))).toEqual(['params: must be an object']);
    });
  });

  describe('patterns', () => {
    it('must compile', () => {
      expect(problemsOf(rule('regex_match', { pattern: '([a-z]' }))).toEqual([
        'params.pattern: not a valid regular expression: /([a-z]/: Unterminated group',
      ]);
      expect(problemsOf(rule('regex_match', { pattern: '' }))).toEqual(['params.pattern: is required']);
      expect(problemsOf(rule('regex_match', {}))).toEqual(['params.pattern: must be text']);
      expect(problemsOf(rule('regex_match', { pattern: 'a'.repeat(501) }))).toEqual(['params.pattern: must be at most 500 characters']);
    });

    it('must be POSIX: no lookaround, back-reference or \\d-like class', () => {
      const notPosix =
        'params.pattern: not a valid regular expression: lookarounds, back-references and \\d \\w \\s \\b are not POSIX; use [0-9], [[:alnum:]_], [[:space:]]';
      for (const pattern of ['^(?=.*@).+$', 'a(?!b)', '(?<=x)y', '(?<!x)y', '(a)\\1', '^\\d+$', '\\w+@\\w+', 'a\\sb', '\\bword\\b']) {
        expect(problemsOf(rule('regex_match', { pattern })), pattern).toEqual([notPosix]);
      }
    });

    it('takes an escaped backslash or bracketed characters for what they are', () => {
      for (const pattern of ['^[0-9]+$', '[[:alnum:]_]+@[[:alnum:]_.]+', 'C:\\\\dir', '[(?=]', '[]d]', '^[^@]+@[^@]+\\.[a-z]{2,}$']) {
        expect(problemsOf(rule('regex_match', { pattern })), pattern).toEqual([]);
      }
    });
  });

  describe('in_set', () => {
    it('wants 1 to 500 values of text or numbers', () => {
      expect(problemsOf(rule('in_set', { values: [] }))).toEqual(['params.values: give at least one value']);
      expect(problemsOf(rule('in_set', { values: 'paid' }))).toEqual(['params.values: must be a list of values']);
      expect(problemsOf(rule('in_set', { values: Array.from({ length: 501 }, (_, i) => i) }))).toEqual([
        'params.values: may hold at most 500 values',
      ]);
      expect(problemsOf(rule('in_set', { values: ['ok', 'x'.repeat(201)] }))).toEqual([
        'params.values.1: each must be at most 200 characters',
      ]);
      expect(problemsOf(rule('in_set', { values: ['ok', { nested: true }] }))).toEqual(['params.values.1: each must be text or a number']);
    });
  });

  describe('freshness', () => {
    it('wants a whole number of minutes from 1 to ten years', () => {
      expect(problemsOf(rule('freshness', {}))).toEqual(['params.maxAgeMinutes: must be a number of minutes']);
      expect(problemsOf(rule('freshness', { maxAgeMinutes: 0 }))).toEqual(['params.maxAgeMinutes: must be at least 1 minute']);
      expect(problemsOf(rule('freshness', { maxAgeMinutes: 1.5 }))).toEqual(['params.maxAgeMinutes: must be a whole number of minutes']);
      expect(problemsOf(rule('freshness', { maxAgeMinutes: 11 * 366 * 24 * 60 }))).toEqual([
        'params.maxAgeMinutes: must be at most ten years',
      ]);
    });
  });

  describe('custom SQL', () => {
    const sqlProblem = ['params.sql: must be one SELECT or WITH statement'];

    it('takes one SELECT or WITH statement, a trailing semicolon dropped', () => {
      expect(PARAMS_OF.custom_sql.parse({ sql: '  select * from orders where total < 0;  ' })).toEqual({
        sql: 'select * from orders where total < 0',
      });
      expect(problemsOf(rule('custom_sql', { sql: 'WITH late AS (select * from orders) SELECT * FROM late' }))).toEqual([]);
    });

    it('refuses anything else', () => {
      expect(problemsOf(rule('custom_sql', { sql: 'delete from orders' }))).toEqual(sqlProblem);
      expect(problemsOf(rule('custom_sql', { sql: 'selection' }))).toEqual(sqlProblem);
      expect(problemsOf(rule('custom_sql', { sql: '   ' }))).toEqual(['params.sql: is required']);
    });

    it('refuses several statements', () => {
      expect(problemsOf(rule('custom_sql', { sql: 'select 1; delete from orders' }))).toEqual(sqlProblem);
      expect(problemsOf(rule('custom_sql', { sql: 'select 1;\n drop table orders;' }))).toEqual(sqlProblem);
    });

    it('refuses comments, which could hide a statement', () => {
      expect(problemsOf(rule('custom_sql', { sql: 'select 1 /* ; drop table orders */' }))).toEqual(sqlProblem);
      expect(problemsOf(rule('custom_sql', { sql: 'select 1 -- ; drop table orders' }))).toEqual(sqlProblem);
    });

    it('is at most 10,000 characters', () => {
      expect(problemsOf(rule('custom_sql', { sql: `select ${'1,'.repeat(5000)}1` }))).toEqual([
        'params.sql: must be at most 10000 characters',
      ]);
    });
  });
});
