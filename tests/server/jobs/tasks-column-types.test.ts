import { describe, expect, it } from 'vitest';
import { destinationType, utcDateTime, valueConversion } from '../../../server/jobs/tasks/column-types';

/** How a copy types the columns it makes and changes values between PostgreSQL and MySQL (server/jobs/tasks/column-types.ts). */

describe('the columns a copy makes', () => {
  it('keeps PostgreSQL’s built-in types between PostgreSQL databases, and turns a type of the source’s own into text', () => {
    for (const type of [
      'numeric(12,2)',
      'character varying(80)',
      'timestamp(3) with time zone',
      'integer[]',
      'interval',
      'jsonb',
      'inet',
      'tstzrange',
      'bit varying(5)',
    ]) {
      expect(destinationType('postgres', 'postgres', type)).toBe(type);
    }
    expect(destinationType('postgres', 'postgres', 'mood')).toBe('text');
    expect(destinationType('postgres', 'postgres', 'public.mood[]')).toBe('text');
  });

  it('keeps MySQL’s types between MySQL databases', () => {
    expect(destinationType('mysql', 'mysql', "enum('a','b')")).toBe("enum('a','b')");
    expect(destinationType('mysql', 'mysql', 'int(10) unsigned')).toBe('int(10) unsigned');
  });

  it.each([
    ['tinyint(1)', 'smallint'],
    ['smallint(5) unsigned', 'integer'],
    ['mediumint(9)', 'integer'],
    ['int(11)', 'integer'],
    ['int(10) unsigned', 'bigint'],
    ['bigint(20)', 'bigint'],
    ['bigint(20) unsigned', 'numeric(20,0)'],
    ['decimal(10,2)', 'numeric(10,2)'],
    ['float', 'real'],
    ['double', 'double precision'],
    ['bit(4)', 'bigint'],
    ['year(4)', 'smallint'],
    ['char(2)', 'character(2)'],
    ['varchar(200)', 'character varying(200)'],
    ['longtext', 'text'],
    ["enum('new','paid')", 'text'],
    ['varbinary(16)', 'bytea'],
    ['mediumblob', 'bytea'],
    ['date', 'date'],
    ['time', 'time(0) without time zone'],
    ['datetime(6)', 'timestamp(6) without time zone'],
    ['timestamp', 'timestamp(0) with time zone'],
    ['json', 'jsonb'],
    ['uuid', 'uuid'],
    ['inet6', 'text'],
  ])('makes MySQL %s a PostgreSQL %s', (mysql, postgres) => {
    expect(destinationType('mysql', 'postgres', mysql)).toBe(postgres);
  });

  it.each([
    ['boolean', 'tinyint(1)'],
    ['smallint', 'smallint'],
    ['integer', 'int'],
    ['bigint', 'bigint'],
    ['numeric(12,2)', 'decimal(12,2)'],
    ['numeric', 'decimal(65,30)'],
    ['numeric(80,2)', 'decimal(65,30)'],
    ['real', 'float'],
    ['double precision', 'double'],
    ['character(3)', 'char(3)'],
    ['character varying(255)', 'varchar(255)'],
    ['character varying(256)', 'longtext'],
    ['character varying', 'longtext'],
    ['text', 'longtext'],
    ['date', 'date'],
    ['time without time zone', 'time(6)'],
    ['timestamp(3) without time zone', 'datetime(3)'],
    ['timestamp with time zone', 'datetime(6)'],
    ['jsonb', 'json'],
    ['uuid', 'char(36)'],
    ['bytea', 'longblob'],
    ['interval', 'longtext'],
    ['integer[]', 'longtext'],
  ])('makes PostgreSQL %s a MySQL %s', (postgres, mysql) => {
    expect(destinationType('postgres', 'mysql', postgres)).toBe(mysql);
  });
});

describe('values on the way', () => {
  it('writes PostgreSQL’s booleans as 1 and 0, its instants in UTC and its bytes as bytes for MySQL', () => {
    expect(valueConversion('postgres', 'mysql', 'boolean')!('t')).toBe('1');
    expect(valueConversion('postgres', 'mysql', 'boolean')!('f')).toBe('0');
    expect(valueConversion('postgres', 'mysql', 'timestamp with time zone')!('2024-03-01 01:30:00.25+05:30')).toBe(
      '2024-02-29 20:00:00.25',
    );
    expect(valueConversion('postgres', 'mysql', 'bytea')!('\\x00ff10')).toEqual(Buffer.from([0, 255, 16]));
    expect(valueConversion('postgres', 'mysql', 'integer')).toBeUndefined();
    expect(valueConversion('postgres', 'mysql', 'boolean')!(null)).toBeNull();
  });

  it('reads MySQL’s TIMESTAMP as UTC and its bits as a number for PostgreSQL', () => {
    expect(valueConversion('mysql', 'postgres', 'timestamp(3)')!('2024-05-01 10:00:00.123')).toBe('2024-05-01 10:00:00.123+00');
    expect(valueConversion('mysql', 'postgres', 'bit(12)')!(new Uint8Array([0x0a, 0x01]))).toBe('2561');
    expect(valueConversion('mysql', 'postgres', 'datetime')).toBeUndefined();
  });

  it('changes nothing between databases of one dialect', () => {
    expect(valueConversion('postgres', 'postgres', 'boolean')).toBeUndefined();
    expect(valueConversion('mysql', 'mysql', 'timestamp')).toBeUndefined();
  });

  it('moves an instant across midnight, month ends and years by its offset, and leaves what is not an instant to the database to refuse', () => {
    expect(utcDateTime('2023-03-01 01:00:00+02')).toBe('2023-02-28 23:00:00');
    expect(utcDateTime('2024-12-31 22:30:00-03')).toBe('2025-01-01 01:30:00');
    expect(utcDateTime('0099-06-01 12:00:00+00')).toBe('0099-06-01 12:00:00');
    expect(utcDateTime('infinity')).toBe('infinity');
  });
});
