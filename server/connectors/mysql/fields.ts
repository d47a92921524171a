import type mysql from 'mysql2/promise';
import type { CellValue, ColumnInfo } from '../types';

/** A result's columns as the protocol describes them: the type each is named by, and how its values are decoded. */

/** The character set number of binary strings. */
const BINARY_CHARSET = 63;
/** A flag of a column's metadata: UNSIGNED. */
const UNSIGNED_FLAG = 32;

/** The protocol's column type codes (MySQL's enum_field_types), by the name a column of that type is made with. */
const FIELD_TYPES: Record<number, string> = {
  0: 'decimal',
  1: 'tinyint',
  2: 'smallint',
  3: 'int',
  4: 'float',
  5: 'double',
  6: 'text',
  7: 'timestamp',
  8: 'bigint',
  9: 'mediumint',
  10: 'date',
  11: 'time',
  12: 'datetime',
  13: 'year',
  14: 'date',
  15: 'varchar',
  16: 'bit',
  245: 'json',
  246: 'decimal',
  247: 'enum',
  248: 'set',
  249: 'tinyblob',
  250: 'mediumblob',
  251: 'longblob',
  252: 'blob',
  253: 'varchar',
  254: 'char',
  255: 'geometry',
};
const STRING_TYPES = new Set([15, 249, 250, 251, 252, 253, 254, 247, 248]);
const BINARY_TYPES = new Set([15, 16, 249, 250, 251, 252, 253, 254, 255]);

const isBinaryField = (field: mysql.FieldPacket) =>
  BINARY_TYPES.has(field.columnType ?? -1) &&
  (field.characterSet === BINARY_CHARSET || field.columnType === 16 || field.columnType === 255);

function flagsOf(field: mysql.FieldPacket): number {
  return typeof field.flags === 'number' ? field.flags : 0;
}

/**
 * A query column's type as the server would name it, from the result's metadata: exact for
 * numbers, dates and times; strings and blobs without their length (a result does not say it in
 * characters), as text and longblob.
 */
export function columnOfField(field: mysql.FieldPacket, index: number): ColumnInfo {
  const code = field.columnType ?? 6;
  const unsigned = (flagsOf(field) & UNSIGNED_FLAG) !== 0;
  const decimals = field.decimals ?? 0;
  let dataType = FIELD_TYPES[code] ?? 'text';
  if (code === 0 || code === 246) {
    const precision = (field.columnLength ?? 10) - (decimals > 0 ? 1 : 0) - (unsigned ? 0 : 1);
    dataType = `decimal(${Math.max(1, precision)},${decimals})`;
  } else if (code === 1 && field.columnLength === 1) dataType = 'tinyint(1)';
  else if ([7, 11, 12].includes(code) && decimals > 0 && decimals <= 6) dataType = `${dataType}(${decimals})`;
  else if (code === 16) dataType = `bit(${Math.max(1, field.columnLength ?? 1)})`;
  else if (isBinaryField(field)) dataType = 'longblob';
  else if (STRING_TYPES.has(code)) dataType = 'longtext';
  if (unsigned && [0, 1, 2, 3, 8, 9, 246].includes(code)) dataType += ' unsigned';
  return { name: field.name, dataType, nullable: true, position: index + 1 };
}

export function decoderOf(field: mysql.FieldPacket): (value: Buffer | null) => CellValue {
  if (isBinaryField(field)) return (value) => value;
  return (value) => (value === null ? null : value.toString('utf8'));
}
