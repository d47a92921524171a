import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { toCsv } from '../../common/csv';
import { QUALITY_SAMPLE_ROWS_DEFAULT, serviceSettingsSchema } from '../../common/settings';
import type { Db } from '../db/client';
import { companySettings, qualityFailingRows } from '../db/schema';

/**
 * The failing rows a data-quality run keeps with it, rule by rule (migration 0014): as many as the
 * company's `qualitySampleRows` asks (20 unless it chose up to 1,000), masked by
 * server/quality/samples.ts before they get here. They are read a page at a time or whole as CSV,
 * and deleted with their run (server/settings/retention.ts).
 */

/** Rows are written this many per statement, so 1,000 rows of many rules stay within a statement's parameters. */
const INSERT_BATCH = 200;

/** How many failing rows each rule of the company's runs keeps: its setting, else 20. */
export async function sampleRowsOf(db: Db, companyId: string): Promise<number> {
  const [row] = await db
    .select({ value: sql<unknown>`${companySettings.values} -> 'qualitySampleRows'` })
    .from(companySettings)
    .where(and(eq(companySettings.companyId, companyId), eq(companySettings.key, 'service')));
  const parsed = serviceSettingsSchema.shape.qualitySampleRows.safeParse(row?.value);
  return parsed.success ? parsed.data : QUALITY_SAMPLE_ROWS_DEFAULT;
}

/** Keeps each result's failing rows with the run, in the order they were read. */
export async function keepFailingRows(
  tx: Db,
  companyId: string,
  runId: string,
  results: ReadonlyArray<{ ruleId: string; sample: ReadonlyArray<Record<string, unknown>> }>,
): Promise<void> {
  const rows = results.flatMap((result) =>
    result.sample.map((row, position) => ({ companyId, runId, ruleId: result.ruleId, position, row })),
  );
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await tx.insert(qualityFailingRows).values(rows.slice(start, start + INSERT_BATCH));
  }
}

const ofRule = (companyId: string, runId: string, ruleId: string) =>
  and(eq(qualityFailingRows.companyId, companyId), eq(qualityFailingRows.runId, runId), eq(qualityFailingRows.ruleId, ruleId))!;

/** A page of one rule's failing rows in one run, and how many it kept in all. */
export async function failingRowsPage(
  db: Db,
  companyId: string,
  runId: string,
  ruleId: string,
  offset: number,
  limit: number,
): Promise<{ rows: Array<Record<string, unknown>>; count: number }> {
  const [total] = await db
    .select({ n: count() })
    .from(qualityFailingRows)
    .where(ofRule(companyId, runId, ruleId));
  const rows = await db
    .select({ row: qualityFailingRows.row })
    .from(qualityFailingRows)
    .where(ofRule(companyId, runId, ruleId))
    .orderBy(asc(qualityFailingRows.position))
    .offset(offset)
    .limit(limit);
  return { rows: rows.map((entry) => entry.row), count: Number(total?.n ?? 0) };
}

/** Every failing row one rule kept in one run, in order. */
export async function allFailingRows(db: Db, companyId: string, runId: string, ruleId: string): Promise<Array<Record<string, unknown>>> {
  const rows = await db
    .select({ row: qualityFailingRows.row })
    .from(qualityFailingRows)
    .where(ofRule(companyId, runId, ruleId))
    .orderBy(asc(qualityFailingRows.position));
  return rows.map((entry) => entry.row);
}

/** The rows as CSV: a column per name any row holds, in the order first met. */
export function failingRowsCsv(rows: ReadonlyArray<Record<string, unknown>>): string {
  const header = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return toCsv(
    header,
    rows.map((row) => header.map((name) => row[name])),
  );
}

/** Deletes the failing rows of these runs; how many went. */
export async function deleteFailingRows(tx: Db, companyId: string, runIds: string[]): Promise<number> {
  if (runIds.length === 0) return 0;
  const deleted = await tx
    .delete(qualityFailingRows)
    .where(and(eq(qualityFailingRows.companyId, companyId), inArray(qualityFailingRows.runId, runIds)))
    .returning({ position: qualityFailingRows.position });
  return deleted.length;
}
