import { z } from 'zod';
import { REPORT_FORMATS, REPORT_KINDS } from '../../schemas/reports';
import { RUN_STATUSES } from '../../schemas/workflows';
import { answer, listAnswer, timestamp } from '../answers';
import { QUALITY_STATUSES } from './quality';

/** Reports and shares as their routes answer them (docs/api/reports.md). */

/** What is shared: a report, or a list view of the console by its path. */
export const SHARE_KINDS = ['report', 'list'] as const;

/** A figure a list of reports shows for each (the shape of the dashboard's cards, without a link). */
export const headlineFigure = z.object({ key: z.string(), label: z.string(), value: z.number() });

/** A file a report carries (`GET /reports/{id}/attachments/{attachmentId}` downloads it). */
export const reportAttachment = z.object({
  id: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  /** In bytes. */
  size: z.number().int(),
});

/** A report as the list answers it, newest first. */
export const reportRow = z.object({
  id: z.string(),
  kind: z.enum(REPORT_KINDS),
  /** "Weekly report" or "Report". */
  title: z.string(),
  periodStart: timestamp,
  /** Exclusive. */
  periodEnd: timestamp,
  /** The period on the company's clocks ("2 Nov 2026 – 8 Nov 2026"). */
  periodLabel: z.string(),
  /** The company's time zone the period was read in. */
  timezone: z.string(),
  format: z.enum(REPORT_FORMATS),
  /** The addresses it was mailed to. */
  recipients: z.array(z.string()),
  /** Null for weekly reports (the server makes them). */
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdAt: timestamp,
  /** When it was mailed; null while it waits. */
  sentAt: timestamp.nullable(),
  headline: z.array(headlineFigure),
  attachments: z.array(reportAttachment),
});
export type Report = z.infer<typeof reportRow>;

/** How many existed at the end of the period, and how many of them were added during it. */
const growth = z.object({ total: z.number().int(), added: z.number().int() });

const countsOf = <const K extends readonly string[]>(keys: K) =>
  z.object(Object.fromEntries(keys.map((key) => [key, z.number().int()])) as Record<K[number], z.ZodNumber>);

/** Every figure of a report, and what is needed to present them again (reports.summary). */
export const reportSummary = z.object({
  title: z.string(),
  company: z.object({ name: z.string(), hostname: z.string() }),
  timezone: z.string(),
  period: z.object({ start: timestamp, end: timestamp, label: z.string() }),
  madeAt: timestamp,
  headline: z.array(headlineFigure),
  /** Job runs queued in the period. */
  runs: z.object({
    total: z.number().int(),
    byStatus: countsOf(RUN_STATUSES),
    /** Failed and timed-out runs. */
    failed: z.number().int(),
    /** Rows written by the copy tasks that succeeded. */
    rowsCopied: z.number(),
    /** The workflows with most failed or timed-out runs (at most 5). */
    failingWorkflows: z.array(z.object({ workflowId: z.string(), name: z.string(), failures: z.number().int() })),
  }),
  /** Check runs started in the period, and their rule results. */
  quality: z.object({
    runs: z.number().int(),
    runsByStatus: countsOf(QUALITY_STATUSES),
    checks: z.number().int(),
    checksByResult: countsOf(QUALITY_STATUSES),
    /** The rules (by table) with most failed or unmeasurable results (at most 10). */
    failedChecks: z.array(
      z.object({ tableId: z.string(), table: z.string(), rule: z.string(), column: z.string().nullable(), failures: z.number().int() }),
    ),
  }),
  security: z.object({
    signIns: z.number().int(),
    failedSignIns: z.number().int(),
    /** Attempts refused while an account or address was slowed down (too many failures). */
    blocked: z.number().int(),
    failedCodes: z.number().int(),
    /** Fully signed-in sessions opened. */
    newSessions: z.number().int(),
    impersonations: z.number().int(),
    /** Distinct addresses security events came from. */
    addresses: z.number().int(),
  }),
  usage: z.object({
    /** Distinct users who signed in. */
    activeUsers: z.number().int(),
    /** Users invited. */
    newUsers: z.number().int(),
    connections: growth,
    tables: growth,
    workflows: growth,
    /** Changes written to the system audit. */
    changes: z.number().int(),
    /** Changes made with API keys (reads with keys are not recorded). */
    apiKeyChanges: z.number().int(),
    /** Runs started with API keys. */
    apiKeyRuns: z.number().int(),
  }),
});
export type ReportSummary = z.infer<typeof reportSummary>;

/** `GET /reports/{id}` and `POST /reports`: the row and every figure. */
export const reportDetail = reportRow.extend({ summary: reportSummary });
export type ReportDetail = z.infer<typeof reportDetail>;

/** A report, or a list view of the console, shared with users of the company. */
export const shareRow = z.object({
  id: z.string(),
  companyId: z.string(),
  kind: z.enum(SHARE_KINDS),
  /** The shared report (`kind: report`). */
  reportId: z.string().nullable(),
  /** The console path of the shared list view, filters included (`kind: list`). */
  path: z.string().nullable(),
  /** The view's title, or the report's with its period. */
  title: z.string(),
  /** The sharer's words; '' when none. */
  message: z.string(),
  recipientIds: z.array(z.string()),
  createdBy: z.string().nullable(),
  createdAt: timestamp,
});
export type Share = z.infer<typeof shareRow>;

/** `GET /reports/{offset}/{limit}` */
export const reportListAnswer = listAnswer(reportRow);

/** `GET /reports/{id}`, `POST /reports` (201) */
export const reportAnswer = answer(reportDetail);

/** `POST /shares` (201) */
export const shareAnswer = answer(shareRow);

/** `GET /reports/{id}/attachments/{attachmentId}`: the file's bytes, as its `contentType` says (a download). */
export const reportAttachmentFile = {
  description: "The attachment's bytes (`Content-Disposition: attachment`)",
  content: {
    'application/pdf': { schema: z.string().meta({ format: 'binary' }) },
    'text/csv': { schema: z.string().meta({ format: 'binary' }) },
  },
};
