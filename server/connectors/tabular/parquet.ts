import type { FileMetaData, SchemaElement, SchemaTree } from 'hyparquet';
import { ConnectorError } from '../types';
import { messageOf, tooManyRows } from './errors';
import { DOES_NOT_FIT, type LoadColumn, type TableReader, type TabularFile, type TabularLimits } from './types';

/**
 * Parquet: schema and rows, and a file opened for loading. hyparquet is imported at the first
 * Parquet file read, not with the server (docs/benchmarks.md, "Memory").
 */

export async function parquetMetadataOf(file: TabularFile): Promise<FileMetaData> {
  // Outside the try: a parser that cannot load is the server's fault, not the file's.
  const { parquetMetadataAsync } = await import('hyparquet');
  try {
    return await parquetMetadataAsync(await file.openRandomAccess());
  } catch (error) {
    if (error instanceof ConnectorError) throw error;
    throw new ConnectorError(`"${file.endpoint}" is not a readable Parquet file: ${messageOf(error)}`, 'invalid');
  }
}

export async function parquetColumns(metadata: FileMetaData): Promise<LoadColumn[]> {
  const { parquetSchema } = await import('hyparquet');
  return parquetSchema(metadata).children.map((node, index) => {
    const dataType = node.children.length > 0 || node.element.repetition_type === 'REPEATED' ? 'jsonb' : parquetLeafType(node.element);
    return {
      info: { name: node.element.name, dataType, nullable: node.element.repetition_type !== 'REQUIRED', position: index + 1 },
      toSql: (value) => parquetValueToSql(value, dataType, node),
    };
  });
}

/** The PostgreSQL type that holds a Parquet column as hyparquet decodes it. */
function parquetLeafType(element: SchemaElement): string {
  const logical = element.logical_type;
  switch (logical?.type) {
    case 'STRING':
    case 'ENUM':
      return 'text';
    case 'JSON':
      return 'jsonb';
    case 'UUID':
      return 'uuid';
    case 'DATE':
      return 'date';
    case 'DECIMAL':
      return `numeric(${logical.precision},${logical.scale})`;
    case 'TIME':
      return 'time';
    case 'TIMESTAMP':
      return logical.isAdjustedToUTC ? 'timestamp with time zone' : 'timestamp';
    case 'FLOAT16':
      return 'real';
    case 'INTEGER':
      if (logical.bitWidth <= 16) return logical.isSigned || logical.bitWidth < 16 ? 'smallint' : 'integer';
      if (logical.bitWidth === 32) return logical.isSigned ? 'integer' : 'bigint';
      return logical.isSigned ? 'bigint' : 'numeric';
    default:
      break;
  }
  switch (element.converted_type) {
    case 'UTF8':
    case 'ENUM':
      return 'text';
    case 'JSON':
      return 'jsonb';
    case 'DATE':
      return 'date';
    case 'DECIMAL':
      return `numeric(${element.precision ?? 38},${element.scale ?? 0})`;
    case 'TIME_MILLIS':
    case 'TIME_MICROS':
      return 'time';
    case 'TIMESTAMP_MILLIS':
    case 'TIMESTAMP_MICROS':
      return 'timestamp with time zone';
    case 'INT_8':
    case 'INT_16':
    case 'UINT_8':
      return 'smallint';
    case 'UINT_16':
      return 'integer';
    case 'UINT_32':
      return 'bigint';
    case 'UINT_64':
      return 'numeric';
    default:
      break;
  }
  const physical: Record<string, string> = {
    BOOLEAN: 'boolean',
    INT32: 'integer',
    INT64: 'bigint',
    INT96: 'timestamp',
    FLOAT: 'real',
    DOUBLE: 'double precision',
    // hyparquet reads plain byte arrays as UTF-8 text.
    BYTE_ARRAY: 'text',
    FIXED_LEN_BYTE_ARRAY: 'bytea',
  };
  return physical[element.type ?? ''] ?? 'text';
}

function parquetValueToSql(value: unknown, dataType: string, node: SchemaTree): string | null | typeof DOES_NOT_FIT {
  if (value === null || value === undefined) return null;
  if (dataType === 'jsonb') return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === 'bigint' ? inner.toString() : inner));
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return DOES_NOT_FIT;
    const iso = value.toISOString();
    if (dataType === 'date') return iso.slice(0, 10);
    return dataType === 'timestamp' ? iso.slice(0, -1) : iso;
  }
  if (dataType === 'time') return timeOfDay(value, node.element);
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (typeof value === 'number' && !Number.isFinite(value) && !['real', 'double precision'].includes(dataType)) return DOES_NOT_FIT;
  const text = String(value);
  return text.includes('\0') ? DOES_NOT_FIT : text;
}

/** Parquet keeps a time of day as a count of milli-, micro- or nanoseconds since midnight. */
function timeOfDay(value: unknown, element: SchemaElement): string | typeof DOES_NOT_FIT {
  const logical = element.logical_type;
  const unit = logical?.type === 'TIME' ? logical.unit : element.converted_type === 'TIME_MILLIS' ? 'MILLIS' : 'MICROS';
  const perMicro = { MILLIS: 1000n, MICROS: 1n, NANOS: 1n } as const;
  const perDivide = { MILLIS: 1n, MICROS: 1n, NANOS: 1000n } as const;
  if (typeof value !== 'number' && typeof value !== 'bigint') return DOES_NOT_FIT;
  const micros = (BigInt(value) * perMicro[unit]) / perDivide[unit];
  const totalSeconds = Number(micros / 1_000_000n);
  const fraction = String(micros % 1_000_000n).padStart(6, '0');
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(totalSeconds / 3600))}:${pad(Math.floor(totalSeconds / 60) % 60)}:${pad(totalSeconds % 60)}.${fraction}`;
}

export async function openParquetReader(file: TabularFile, limits: TabularLimits): Promise<TableReader> {
  const metadata = await parquetMetadataOf(file);
  if (metadata.num_rows > BigInt(limits.maxRows)) throw tooManyRows(file, limits);
  const { cachedAsyncBuffer, parquetReadObjects } = await import('hyparquet');
  const buffer = cachedAsyncBuffer(await file.openRandomAccess());
  const columns = await parquetColumns(metadata);
  async function* rows() {
    // One row group at a time: a group is what Parquet compresses together, and memory stays bounded by it.
    let rowStart = 0;
    for (const group of metadata.row_groups) {
      const rowEnd = rowStart + Number(group.num_rows);
      let objects: Record<string, unknown>[];
      try {
        objects = await parquetReadObjects({ file: buffer, metadata, rowStart, rowEnd, rowFormat: 'object' });
      } catch (error) {
        throw new ConnectorError(`"${file.endpoint}" could not be read: ${messageOf(error)}`, 'invalid');
      }
      for (const object of objects) yield columns.map((column) => object[column.info.name]);
      rowStart = rowEnd;
    }
  }
  return { columns, rows: rows(), stop: async () => undefined };
}
