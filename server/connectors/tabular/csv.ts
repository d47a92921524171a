import { pipeline } from 'node:stream';
import { ConnectorError } from '../types';
import { messageOf } from './errors';
import { MAX_NAME_BYTES, truncateToBytes } from './names';
import { DOES_NOT_FIT, type LoadColumn, type TableReader, type TabularFile } from './types';

/** CSV: records, header, type inference, and a file opened for loading. csv-parse comes with the first CSV read. */

const SAMPLE_ROWS = 1000;
/** A record longer than this is not a CSV row but a runaway quote: stop rather than fill the memory. */
const MAX_CSV_RECORD_BYTES = 16 * 1024 * 1024;

/** The file's records, streamed: the file is never read whole into memory. */
export async function* csvRecords(file: TabularFile): AsyncGenerator<string[]> {
  const { parse: parseCsv } = await import('csv-parse');
  const input = await file.openStream();
  const parser = parseCsv({ bom: true, skip_empty_lines: true, max_record_size: MAX_CSV_RECORD_BYTES });
  // pipeline ends both streams on an error or an early stop; the error reaches the loop below.
  pipeline(input, parser, () => undefined);
  try {
    for await (const record of parser as AsyncIterable<string[]>) yield record;
  } catch (error) {
    throw error instanceof ConnectorError ? error : new ConnectorError(`"${file.endpoint}": ${messageOf(error)}`, 'invalid');
  } finally {
    input.destroy();
    parser.destroy();
  }
}

type CsvType = 'integer' | 'bigint' | 'numeric' | 'boolean' | 'date' | 'timestamp' | 'timestamp with time zone' | 'text';
type ValueKind = Exclude<CsvType, 'text' | 'timestamp with time zone'> | 'timestamptz' | 'other';

/** Each type and the kinds of value it holds, narrowest type first: a column takes the first that holds all it saw. */
const CSV_TYPES: ReadonlyArray<{ type: CsvType; holds: ReadonlySet<ValueKind> }> = [
  { type: 'integer', holds: new Set(['integer']) },
  { type: 'bigint', holds: new Set(['integer', 'bigint']) },
  { type: 'numeric', holds: new Set(['integer', 'bigint', 'numeric']) },
  { type: 'boolean', holds: new Set(['boolean']) },
  { type: 'date', holds: new Set(['date']) },
  { type: 'timestamp', holds: new Set(['date', 'timestamp']) },
  { type: 'timestamp with time zone', holds: new Set(['date', 'timestamp', 'timestamptz']) },
];

const INT4 = { min: -2147483648n, max: 2147483647n };
const INT8 = { min: -9223372036854775808n, max: 9223372036854775807n };
const INTEGER_TEXT = /^[+-]?\d+$/;
const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const BOOLEAN_TEXT = /^(true|false)$/i;
const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP_TEXT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?(Z|[+-](\d{2})(?::?(\d{2}))?)?$/i;

function kindOf(value: string): ValueKind {
  if (INTEGER_TEXT.test(value)) {
    const number = BigInt(value);
    if (number >= INT4.min && number <= INT4.max) return 'integer';
    return number >= INT8.min && number <= INT8.max ? 'bigint' : 'numeric';
  }
  if (NUMERIC_TEXT.test(value)) return 'numeric';
  if (BOOLEAN_TEXT.test(value)) return 'boolean';
  const date = DATE_TEXT.exec(value);
  if (date) return isCalendarDate(date[1]!, date[2]!, date[3]!) ? 'date' : 'other';
  const stamp = TIMESTAMP_TEXT.exec(value);
  if (
    stamp &&
    isCalendarDate(stamp[1]!, stamp[2]!, stamp[3]!) &&
    isTimeOfDay(stamp[4]!, stamp[5]!, stamp[6] ?? '0', stamp[8] ?? '0', stamp[9] ?? '0')
  ) {
    return stamp[7] ? 'timestamptz' : 'timestamp';
  }
  return 'other';
}

function isCalendarDate(year: string, month: string, day: string): boolean {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function isTimeOfDay(hours: string, minutes: string, seconds: string, offsetHours: string, offsetMinutes: string): boolean {
  return Number(hours) <= 23 && Number(minutes) <= 59 && Number(seconds) <= 59 && Number(offsetHours) <= 14 && Number(offsetMinutes) <= 59;
}

const isEmptyCell = (cell: string | undefined) => cell === undefined || cell.trim() === '';

/** What a column's sampled cells say of its type. */
class ColumnProfile {
  readonly kinds = new Set<ValueKind>();
  sawEmpty = false;

  observe(cell: string | undefined): void {
    if (isEmptyCell(cell)) this.sawEmpty = true;
    else this.kinds.add(kindOf(cell!.trim()));
  }

  type(): CsvType {
    if (this.kinds.size === 0) return 'text';
    return CSV_TYPES.find((candidate) => [...this.kinds].every((kind) => candidate.holds.has(kind)))?.type ?? 'text';
  }
}

function csvColumn(name: string, position: number, profile: ColumnProfile): LoadColumn {
  const type = profile.type();
  const holds = CSV_TYPES.find((candidate) => candidate.type === type)?.holds;
  return {
    info: { name, dataType: type, nullable: profile.sawEmpty, position },
    toSql(value) {
      const cell = value as string | undefined;
      if (isEmptyCell(cell)) return null;
      if (!holds) return cell!.includes('\0') ? DOES_NOT_FIT : cell!;
      const trimmed = cell!.trim();
      return holds.has(kindOf(trimmed)) ? trimmed : DOES_NOT_FIT;
    },
  };
}

/** Reads the header and up to 1,000 rows, and types the columns from them. */
export async function readCsvHead(
  file: TabularFile,
  records: AsyncGenerator<string[]>,
): Promise<{ columns: LoadColumn[]; sample: string[][] }> {
  const first = await records.next();
  if (first.done) throw new ConnectorError(`"${file.endpoint}" is empty: a CSV file needs a header row`, 'invalid');
  const names = tableColumnNames(first.value);
  const profiles = names.map(() => new ColumnProfile());
  const sample: string[][] = [];
  while (sample.length < SAMPLE_ROWS) {
    const next = await records.next();
    if (next.done) break;
    sample.push(next.value);
    profiles.forEach((profile, index) => profile.observe(next.value[index]));
  }
  return { columns: names.map((name, index) => csvColumn(name, index + 1, profiles[index]!)), sample };
}

/**
 * Header cells as column names PostgreSQL keeps as they are: a blank one is named by its
 * position, a long one is cut to 63 bytes, and a repeated one gets a suffix.
 */
function tableColumnNames(header: readonly string[]): string[] {
  const taken = new Set<string>();
  return header.map((cell, index) => {
    const base = truncateToBytes(cell.trim() || `column_${index + 1}`, MAX_NAME_BYTES);
    let name = base;
    for (let n = 2; taken.has(name); n += 1) name = `${truncateToBytes(base, MAX_NAME_BYTES - String(n).length - 1)}_${n}`;
    taken.add(name);
    return name;
  });
}

export async function openCsvReader(file: TabularFile): Promise<TableReader> {
  const records = csvRecords(file);
  try {
    const { columns, sample } = await readCsvHead(file, records);
    async function* rows() {
      yield* sample;
      for await (const record of records) yield record;
    }
    return { columns, rows: rows(), stop: async () => void (await records.return(undefined)) };
  } catch (error) {
    await records.return(undefined);
    throw error;
  }
}
