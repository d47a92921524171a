import type { Dialect, TableWriter } from '../../connectors/types';

/**
 * What a merge checks before it writes a row, and of the rows it read before they reach the
 * target. A merge matches rows by key columns, so the target needs a unique key on exactly those
 * columns (made here when it has none) and neither the target nor the rows read may repeat a key.
 *
 * **Rows read that repeat a key fail the run**, rather than "the last one wins": a source read has
 * no order of its own (a table, a query without ORDER BY), so which row came last would be chance,
 * and the destination would differ from one run to the next. The message names the key and a
 * repeated value; nothing is written.
 */

/** Names as the dialect compares them: MySQL's column names ignore case, PostgreSQL's do not. */
const sameName = (dialect: Dialect) => (a: string, b: string) => (dialect === 'mysql' ? a.toLowerCase() === b.toLowerCase() : a === b);

/** "(id, region) = (42, 'eu')": a key and one value of it, for messages. */
export function keyValueText(keys: readonly string[], values: ReadonlyArray<string | null>): string {
  const shown = values.map((value) => (value === null ? 'null' : `'${value.length > 80 ? `${value.slice(0, 80)}…` : value}'`));
  return keys.length === 1 ? `${keys[0]} = ${shown[0]}` : `(${keys.join(', ')}) = (${shown.join(', ')})`;
}

/** Key or watermark columns must be columns of the rows read, as the source names them. */
export function requireSourceColumns(
  names: readonly string[],
  columns: readonly string[],
  dialect: Dialect,
  role: 'key' | 'watermark',
): void {
  const same = sameName(dialect);
  const missing = names.filter((name) => !columns.some((column) => same(column, name)));
  if (missing.length === 0) return;
  throw new Error(
    `The ${role} column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} ${missing.length === 1 ? 'is not a column' : 'are not columns'} of the source; its columns are ${columns.join(', ')}`,
  );
}

/**
 * Readies an existing target for a merge by `keys`: a unique key on exactly them is used as it
 * is; without one, the target's rows must not repeat a key (else the run fails, the target
 * untouched) and a unique index is made, which the run's log tells.
 *
 * On MySQL, ON DUPLICATE KEY UPDATE answers a clash on any unique key of the table: a row whose
 * key is new but which clashes on another unique key the copy writes (`written`) would update the
 * row it clashes with instead of being added. Such a target is refused, the table untouched.
 */
export async function prepareMergeTarget(
  writer: TableWriter,
  target: { table: string; connectionName: string; dialect: Dialect },
  keys: readonly string[],
  log: (line: string) => Promise<void>,
  written: readonly string[] = [],
): Promise<void> {
  const same = sameName(target.dialect);
  const exactly = (columns: readonly string[]) =>
    columns.length === keys.length && keys.every((key) => columns.some((column) => same(column, key)));
  const unique = await writer.uniqueKeys(target.table);
  if (target.dialect === 'mysql') {
    const clashing = unique.find((columns) => !exactly(columns) && columns.every((column) => written.some((name) => same(name, column))));
    if (clashing) {
      throw new Error(
        `${target.table} of "${target.connectionName}" has another unique key, on ${clashing.join(', ')}, which the copy writes: ` +
          `MySQL's merge (ON DUPLICATE KEY UPDATE) would update the row a new row clashes with on it rather than add the new row. ` +
          `Merge by ${clashing.join(', ')}, or leave ${clashing.length === 1 ? 'that column' : 'those columns'} out of the copy. Nothing was written`,
      );
    }
  }
  if (unique.some(exactly)) return;
  const repeated = await writer.repeatedKey(target.table, keys);
  if (repeated) {
    throw new Error(
      `${target.table} of "${target.connectionName}" already holds rows that repeat the key: ${keyValueText(keys, repeated)} appears more than once. ` +
        `A merge needs one row per key; remove the repeated rows or choose other key columns. Nothing was written`,
    );
  }
  const statement = await writer.addUniqueKey(target.table, keys);
  await log(`${target.table} had no unique key on ${keys.join(', ')}; the merge made one so that rows match by it: ${statement}`);
}

/** The rows read, in the copy's own table, before they are merged: each has a key, and no key twice. */
export async function checkReadKeys(writer: TableWriter, staging: string, keys: readonly string[]): Promise<void> {
  const empty = await writer.emptyKey(staging, keys);
  if (empty !== undefined) {
    throw new Error(
      `A row of the source has no value in the key column ${empty}; a merge matches rows by their key, so every row needs one`,
    );
  }
  const repeated = await writer.repeatedKey(staging, keys);
  if (repeated) {
    throw new Error(
      `The source repeats the key ${keyValueText(keys, repeated)}: a merge takes one row per key, and the source's order cannot say which one wins`,
    );
  }
}
