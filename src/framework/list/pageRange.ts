import type { TranslateFunction } from 'react-admin';

/** Where a page is: "11–20 of 23", "11–20 of 10,000+" past the server's count cap, "11–20" without a count, or no rows. */
export function pageRange(
  translate: TranslateFunction,
  { page, perPage, rows, total, cappedCount }: { page: number; perPage: number; rows: number; total?: number; cappedCount?: number },
): string {
  const from = (page - 1) * perPage + 1;
  const to = from + rows - 1;
  if (rows === 0) return translate('app.list.empty_range');
  if (total !== undefined) return translate('app.list.range', { from, to, total: total.toLocaleString('en') });
  if (cappedCount !== undefined) return translate('app.list.range_capped', { from, to, total: cappedCount.toLocaleString('en') });
  return translate('app.list.range_open', { from, to });
}
