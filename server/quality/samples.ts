import { QUALITY_SAMPLE_ROWS_DEFAULT } from '../../common/settings';
import type { DictionaryColumn } from './rules';

/**
 * Failing rows as a result keeps them: JSON values, long texts cut, and the columns the
 * dictionary marks `pii` masked (the first character, then `***`; a null stays null, for a
 * missing value is itself what the rule found).
 */

/**
 * Up to this many failing rows are read per rule unless the company chose another number (its
 * setting `qualitySampleRows`); a result answers at most this many beside it, and the run keeps
 * all it read (server/quality/failing-rows.ts).
 */
export const SAMPLE_ROWS = QUALITY_SAMPLE_ROWS_DEFAULT;
/** A sample is for recognising a row, not for copying data out: longer values are cut. */
const VALUE_CHARS_MAX = 200;

const cut = (text: string) => (text.length > VALUE_CHARS_MAX ? `${text.slice(0, VALUE_CHARS_MAX)}…` : text);

/** A value of a row as JSON can hold it. */
function plainValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return cut(value);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return cut(`\\x${Buffer.from(value).toString('hex')}`);
  const json = JSON.stringify(value);
  return json.length > VALUE_CHARS_MAX ? cut(json) : value;
}

export function maskValue(value: unknown): unknown {
  if (value === null) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `${Array.from(text)[0] ?? ''}***`;
}

/** The sample of a rule: its first `limit` rows made plain, `pii` columns masked. */
export function sampleOf(
  rows: ReadonlyArray<Record<string, unknown>>,
  columns: readonly DictionaryColumn[],
  limit = SAMPLE_ROWS,
): Array<Record<string, unknown>> {
  // The source may answer a name in another case than the dictionary keeps it (MySQL's case-insensitive identifiers).
  const personal = new Set(columns.filter((column) => column.sensitivity === 'pii').map((column) => column.name.toLowerCase()));
  return rows.slice(0, limit).map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([name, value]) => {
        const plain = plainValue(value);
        return [name, personal.has(name.toLowerCase()) ? maskValue(plain) : plain];
      }),
    ),
  );
}
