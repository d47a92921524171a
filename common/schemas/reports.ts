import { z } from 'zod';

/**
 * Bodies of the reports and shares area (docs/api/reports.md), shared by the server and the
 * console's dialogs so that both say the same thing about the same field.
 */

export const REPORT_FORMATS = ['pdf', 'csv'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
export const REPORT_KINDS = ['weekly', 'on_demand'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** What a weekly report is made as, and an on-demand one that names no format. */
export const DEFAULT_REPORT_FORMAT: ReportFormat = 'pdf';
/** An on-demand report without a period covers this many days up to now. */
export const DEFAULT_REPORT_DAYS = 7;
/** The longest period a report may cover. */
export const REPORT_PERIOD_MAX_DAYS = 366;

export const SHARE_RECIPIENTS_MAX = 100;
export const SHARE_MESSAGE_MAX = 2000;
export const SHARE_TITLE_MAX = 200;
export const SHARE_PATH_MAX = 2000;

const userIds = z
  .array(z.uuid({ error: 'must be a list of user ids' }), { error: 'must be a list of user ids' })
  .max(SHARE_RECIPIENTS_MAX, `may hold at most ${SHARE_RECIPIENTS_MAX} users`)
  .transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]);

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * A bound of a report's period: a day of the company's calendar (`2026-11-02`: its midnight in
 * the company's time zone; as the end, the whole day is included), or an instant with its offset.
 */
export const periodBound = z
  .string({ error: 'must be a date such as 2026-11-02' })
  .trim()
  .refine(
    (value) => (DAY.test(value) || TIMESTAMP.test(value)) && !Number.isNaN(Date.parse(DAY.test(value) ? `${value}T00:00:00Z` : value)),
    {
      message: 'must be a date such as 2026-11-02, or a time with its offset such as 2026-11-02T09:00:00Z',
    },
  );

export const isCalendarDay = (value: string): boolean => DAY.test(value);

/** A field a form may leave empty: missing, null or '' all mean "not given". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' || value === null ? undefined : value), schema.optional());

/** POST /reports: a report made now. */
export const makeReportBody = z
  .object({
    format: optional(z.enum(REPORT_FORMATS, { error: `must be one of ${REPORT_FORMATS.join(', ')}` })),
    recipients: optional(userIds),
    periodStart: optional(periodBound),
    periodEnd: optional(periodBound),
  })
  .strict();
export type MakeReportBody = z.input<typeof makeReportBody>;

/**
 * Why a text is not a path of the console (or null when it is one): it must start with a single
 * `/`, name no scheme or host, and hold no spaces, back-slashes or control characters, so that a
 * shared link can only ever lead inside the console.
 */
export function consolePathProblem(path: string): string | null {
  if (!path.startsWith('/')) return "must be a path of the console starting with '/', such as /job-runs";
  if (path.startsWith('//')) return 'must be a path of the console, not an address of another site';
  if (/[\s\\\u0000-\u001f\u007f]/.test(path)) return 'may not hold spaces, back-slashes or control characters';
  if (/^\/api(\/|$)/i.test(path)) return 'must be a page of the console, not an API address';
  const base = 'http://console.invalid';
  let url: URL;
  try {
    url = new URL(path, base);
  } catch {
    return 'is not a valid path';
  }
  if (url.origin !== base) return 'must be a path of the console, not an address of another site';
  return null;
}

const consolePath = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(SHARE_PATH_MAX, `must be at most ${SHARE_PATH_MAX} characters`)
  .superRefine((value, ctx) => {
    const problem = consolePathProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const message = z
  .union([z.string({ error: 'must be text' }).trim().max(SHARE_MESSAGE_MAX, `must be at most ${SHARE_MESSAGE_MAX} characters`), z.null()], {
    error: 'must be text',
  })
  .optional()
  .transform((value) => value ?? '');

const recipients = userIds.refine((ids) => ids.length > 0, 'choose at least one user');

export const shareReportBody = z
  .object({ kind: z.literal('report'), reportId: z.uuid({ error: 'must be a valid id' }), userIds: recipients, message })
  .strict();

export const shareListBody = z
  .object({
    kind: z.literal('list'),
    path: consolePath,
    title: z
      .string({ error: 'is required' })
      .trim()
      .min(1, 'is required')
      .max(SHARE_TITLE_MAX, `must be at most ${SHARE_TITLE_MAX} characters`),
    userIds: recipients,
    message,
  })
  .strict();

/** POST /shares: a report, or a list view of the console by its path, shared with chosen users. */
export const shareBody = z.discriminatedUnion('kind', [shareReportBody, shareListBody], { error: 'must be report or list' });
export type ShareBody = z.input<typeof shareBody>;
