import type { CellValue, ColumnDefinition, Dialect } from '../../connectors/types';

/**
 * How a copy makes its destination's columns from the source's, and what it does to values on
 * the way, between the two SQL dialects (PostgreSQL — a server, the embedded database, files —
 * and MySQL/MariaDB). Between databases of one dialect a type is kept as the source names it;
 * across dialects it goes through the kind of value it holds:
 *
 * | kind | from PostgreSQL | from MySQL | made on PostgreSQL | made on MySQL |
 * |---|---|---|---|---|
 * | boolean | boolean | — | boolean | tinyint(1) |
 * | small/integer/big | smallint, integer, bigint | tinyint, smallint, mediumint, int, bigint, year (unsigned: one size up; bigint unsigned: decimal(20,0)) | smallint, integer, bigint | smallint, int, bigint |
 * | decimal | numeric(p,s) | decimal(p,s) | numeric(p,s) | decimal(p,s); decimal(65,30) without a precision or beyond MySQL's |
 * | real, double | real, double precision | float, double | real, double precision | float, double |
 * | char, varchar | character(n), character varying(n) | char(n), varchar(n) | the same | the same up to 255 characters, longtext beyond |
 * | text | text, name | tinytext … longtext, enum, set | text | longtext |
 * | date, time | date, time(p) | date, time(p) | the same | date, time(p), 6 digits of seconds unless said |
 * | timestamp | timestamp(p) | datetime(p) | timestamp(p) | datetime(p) |
 * | timestamp with time zone | timestamp(p) with time zone | timestamp(p) (read in UTC) | timestamp(p) with time zone | datetime(p), in UTC |
 * | json | json, jsonb | json | jsonb | json |
 * | uuid | uuid | uuid (MariaDB) | uuid | char(36) |
 * | binary | bytea | binary, varbinary, blobs, geometry | bytea | longblob |
 * | bits | — | bit(n) | bigint (the bits' value) | — |
 * | anything else | intervals, arrays, ranges, network and geometric types, user types | inet4, inet6 | text (kept as it is between PostgreSQL databases when built in) | longtext |
 *
 * A user-defined PostgreSQL type (an enum, a domain) may not exist in the destination, so it
 * becomes text even between PostgreSQL databases; its values are copied as their text.
 */

type Kind =
  | 'boolean'
  | 'smallint'
  | 'integer'
  | 'bigint'
  | 'decimal'
  | 'real'
  | 'double'
  | 'char'
  | 'varchar'
  | 'text'
  | 'date'
  | 'time'
  | 'timestamp'
  | 'timestamptz'
  | 'json'
  | 'uuid'
  | 'binary'
  | 'bits'
  | 'other';

interface ColumnType {
  kind: Kind;
  /** Characters of char and varchar. */
  length?: number;
  precision?: number;
  scale?: number;
  /** Digits of seconds of times and timestamps. */
  fraction?: number;
  /** A type every PostgreSQL has, kept as it is between PostgreSQL databases though its kind is 'other'. */
  builtIn?: boolean;
}

const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));

/** PostgreSQL's own types beyond the kinds above, which every PostgreSQL database has. */
const POSTGRES_BUILT_INS =
  /^(interval.*|time(\(\d\))? with time zone|timetz|money|inet|cidr|macaddr8?|xml|tsvector|tsquery|point|line|lseg|box|path|polygon|circle|bit( varying)?(\(\d+\))?|varbit|oid|regclass|pg_lsn|jsonpath|(int4|int8|num|ts|tstz|date)(multi)?range|"char")$/;

function parsePostgres(dataType: string): ColumnType {
  const type = dataType.trim().toLowerCase();
  if (type.endsWith('[]')) {
    const element = parsePostgres(type.slice(0, -2));
    return { kind: 'other', builtIn: element.kind !== 'other' || element.builtIn === true };
  }
  let match: RegExpExecArray | null;
  if (/^(smallint|int2)$/.test(type)) return { kind: 'smallint' };
  if (/^(integer|int|int4)$/.test(type)) return { kind: 'integer' };
  if (/^(bigint|int8)$/.test(type)) return { kind: 'bigint' };
  if ((match = /^(?:numeric|decimal)(?:\((\d+)(?:,\s*(\d+))?\))?$/.exec(type)))
    return { kind: 'decimal', precision: number(match[1]), scale: number(match[2] ?? (match[1] ? '0' : undefined)) };
  if (/^(real|float4)$/.test(type)) return { kind: 'real' };
  if (/^(double precision|float8|float)$/.test(type)) return { kind: 'double' };
  if (/^(boolean|bool)$/.test(type)) return { kind: 'boolean' };
  if ((match = /^(?:character varying|varchar)(?:\((\d+)\))?$/.exec(type))) return { kind: 'varchar', length: number(match[1]) };
  if ((match = /^(?:character|char|bpchar)(?:\((\d+)\))?$/.exec(type))) return { kind: 'char', length: number(match[1]) ?? 1 };
  if (type === 'text') return { kind: 'text' };
  if (type === 'name') return { kind: 'varchar', length: 63 };
  if (type === 'date') return { kind: 'date' };
  if ((match = /^time(?:\((\d)\))?(?: without time zone)?$/.exec(type))) return { kind: 'time', fraction: number(match[1]) };
  if ((match = /^timestamp(?:\((\d)\))?(?: without time zone)?$/.exec(type))) return { kind: 'timestamp', fraction: number(match[1]) };
  if ((match = /^(?:timestamp(?:\((\d)\))? with time zone|timestamptz)$/.exec(type)))
    return { kind: 'timestamptz', fraction: number(match[1]) };
  if (type === 'json' || type === 'jsonb') return { kind: 'json' };
  if (type === 'uuid') return { kind: 'uuid' };
  if (type === 'bytea') return { kind: 'binary' };
  return { kind: 'other', builtIn: POSTGRES_BUILT_INS.test(type) };
}

function parseMysql(dataType: string): ColumnType {
  const type = dataType
    .trim()
    .toLowerCase()
    .replace(/\s+zerofill\b/, '');
  const unsigned = /\bunsigned\b/.test(type);
  const base = type.replace(/\s+unsigned\b/, '').trim();
  let match: RegExpExecArray | null;
  if (/^tinyint\b/.test(base)) return { kind: 'smallint' };
  if (/^smallint\b/.test(base)) return { kind: unsigned ? 'integer' : 'smallint' };
  if (/^mediumint\b/.test(base)) return { kind: 'integer' };
  if (/^int(eger)?\b/.test(base)) return { kind: unsigned ? 'bigint' : 'integer' };
  if (/^bigint\b/.test(base)) return unsigned ? { kind: 'decimal', precision: 20, scale: 0 } : { kind: 'bigint' };
  if (/^year\b/.test(base)) return { kind: 'smallint' };
  if ((match = /^(?:decimal|numeric|dec|fixed)(?:\((\d+)(?:,\s*(\d+))?\))?/.exec(base)))
    return { kind: 'decimal', precision: number(match[1]) ?? 10, scale: number(match[2]) ?? 0 };
  if ((match = /^float(?:\((\d+)(?:,\s*\d+)?\))?/.exec(base)))
    return { kind: match[1] !== undefined && Number(match[1]) > 24 ? 'double' : 'real' };
  if (/^(double|real)\b/.test(base)) return { kind: 'double' };
  if (/^bit\b/.test(base)) return { kind: 'bits' };
  if ((match = /^char\((\d+)\)/.exec(base))) return { kind: 'char', length: Number(match[1]) };
  if ((match = /^varchar\((\d+)\)/.exec(base))) return { kind: 'varchar', length: Number(match[1]) };
  if (/^(tiny|medium|long)?text\b/.test(base) || /^(enum|set)\(/.test(base)) return { kind: 'text' };
  if (
    /^(binary|varbinary|(tiny|medium|long)?blob)\b/.test(base) ||
    /^(geometry|point|linestring|polygon|multi\w+|geometrycollection)\b/.test(base)
  )
    return { kind: 'binary' };
  if (base === 'date') return { kind: 'date' };
  if ((match = /^time(?:\((\d)\))?$/.exec(base))) return { kind: 'time', fraction: number(match[1]) ?? 0 };
  if ((match = /^datetime(?:\((\d)\))?$/.exec(base))) return { kind: 'timestamp', fraction: number(match[1]) ?? 0 };
  if ((match = /^timestamp(?:\((\d)\))?$/.exec(base))) return { kind: 'timestamptz', fraction: number(match[1]) ?? 0 };
  if (base === 'json') return { kind: 'json' };
  if (base === 'uuid') return { kind: 'uuid' };
  return { kind: 'other' };
}

const parse = (dialect: Dialect, dataType: string) => (dialect === 'postgres' ? parsePostgres(dataType) : parseMysql(dataType));

function postgresTypeOf(type: ColumnType): string {
  const fraction = type.fraction === undefined ? '' : `(${type.fraction})`;
  switch (type.kind) {
    case 'boolean':
    case 'smallint':
    case 'integer':
    case 'bigint':
    case 'real':
    case 'text':
    case 'date':
    case 'uuid':
      return type.kind;
    case 'decimal':
      return type.precision === undefined ? 'numeric' : `numeric(${type.precision},${type.scale ?? 0})`;
    case 'double':
      return 'double precision';
    case 'char':
      return `character(${type.length ?? 1})`;
    case 'varchar':
      return type.length === undefined ? 'character varying' : `character varying(${type.length})`;
    case 'time':
      return `time${fraction} without time zone`;
    case 'timestamp':
      return `timestamp${fraction} without time zone`;
    case 'timestamptz':
      return `timestamp${fraction} with time zone`;
    case 'json':
      return 'jsonb';
    case 'binary':
      return 'bytea';
    case 'bits':
      return 'bigint';
    case 'other':
      return 'text';
  }
}

/** MySQL's longest VARCHAR that leaves room for many such columns in its 65,535-byte row. */
const MYSQL_VARCHAR_MAX = 255;

function mysqlTypeOf(type: ColumnType): string {
  const fraction = `(${Math.min(type.fraction ?? 6, 6)})`;
  switch (type.kind) {
    case 'boolean':
      return 'tinyint(1)';
    case 'smallint':
    case 'bigint':
    case 'double':
    case 'date':
    case 'json':
      return type.kind;
    case 'integer':
      return 'int';
    case 'bits':
      return 'bigint unsigned';
    case 'decimal': {
      const { precision, scale = 0 } = type;
      return precision !== undefined && precision <= 65 && scale <= 30 ? `decimal(${precision},${scale})` : 'decimal(65,30)';
    }
    case 'real':
      return 'float';
    case 'char':
      return (type.length ?? 1) <= MYSQL_VARCHAR_MAX ? `char(${type.length ?? 1})` : 'longtext';
    case 'varchar':
      return type.length !== undefined && type.length <= MYSQL_VARCHAR_MAX ? `varchar(${type.length})` : 'longtext';
    case 'time':
      return `time${fraction}`;
    case 'timestamp':
    case 'timestamptz':
      return `datetime${fraction}`;
    case 'uuid':
      return 'char(36)';
    case 'binary':
      return 'longblob';
    case 'text':
    case 'other':
      return 'longtext';
  }
}

/** The type the destination's column is made with, for a source column of `dataType`. */
export function destinationType(source: Dialect, destination: Dialect, dataType: string): string {
  if (source === destination) {
    if (source === 'mysql') return dataType;
    const type = parsePostgres(dataType);
    return type.kind !== 'other' || type.builtIn ? dataType : 'text';
  }
  const type = parse(source, dataType);
  return destination === 'postgres' ? postgresTypeOf(type) : mysqlTypeOf(type);
}

type Convert = (value: CellValue) => CellValue;

const TIMESTAMP_WITH_OFFSET = /^(\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d+)?([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?$/;

/** A PostgreSQL `timestamp with time zone` ("2024-05-01 12:00:00.5+02") as the UTC date and time MySQL keeps ("2024-05-01 10:00:00.5"). */
export function utcDateTime(value: string): string {
  const match = TIMESTAMP_WITH_OFFSET.exec(value);
  if (!match) return value; // infinity, a BC date: MySQL says it cannot take it
  const [, year, month, day, hours, minutes, seconds, fraction = '', sign, offsetHours, offsetMinutes = '0', offsetSeconds = '0'] = match;
  const offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 3600 + Number(offsetMinutes) * 60 + Number(offsetSeconds));
  // setUTCFullYear takes any year as it is (Date.UTC reads 0–99 as 1900–1999); the hours carry the offset over midnight.
  const at = new Date(0);
  at.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  at.setUTCHours(Number(hours), Number(minutes), Number(seconds) - offset, 0);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(at.getUTCFullYear(), 4)}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}${fraction}`;
}

/** bytea's hex text ("\x0102") as bytes. */
function bytesOfHex(value: string): Uint8Array {
  return Buffer.from(value.startsWith('\\x') ? value.slice(2) : value, 'hex');
}

/** A MySQL BIT value (big-endian bytes) as the whole number it is. */
function bitsAsNumber(value: Uint8Array): string {
  let total = 0n;
  for (const byte of value) total = (total << 8n) | BigInt(byte);
  return total.toString();
}

const text =
  (convert: (value: string) => CellValue): Convert =>
  (value) =>
    typeof value === 'string' ? convert(value) : value;

/** What a value of a source column becomes on the way to the destination; undefined when it goes as it is. */
export function valueConversion(source: Dialect, destination: Dialect, dataType: string): Convert | undefined {
  if (source === destination) return undefined;
  const { kind } = parse(source, dataType);
  if (source === 'postgres') {
    if (kind === 'boolean') return text((value) => (value === 't' ? '1' : value === 'f' ? '0' : value));
    if (kind === 'timestamptz') return text(utcDateTime);
    if (kind === 'binary') return text(bytesOfHex);
    return undefined;
  }
  // MySQL's TIMESTAMP is read in UTC (the reading session's time zone).
  if (kind === 'timestamptz') return text((value) => `${value}+00`);
  if (kind === 'bits') return (value) => (value instanceof Uint8Array ? bitsAsNumber(value) : value);
  return undefined;
}

/** The destination's column for a source column. */
export function destinationColumn(source: Dialect, destination: Dialect, column: ColumnDefinition): ColumnDefinition {
  return { name: column.name, dataType: destinationType(source, destination, column.dataType), nullable: column.nullable };
}
