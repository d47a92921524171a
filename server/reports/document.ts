import type { Locale } from '../../common/locales';
import type { ReportKind } from '../../common/schemas/reports';
import { RUN_STATUSES } from '../../common/schemas/workflows';
import { QUALITY_STATUSES, headlineOf, type HeadlineFigure, type ReportFigures } from './figures';
import { periodLabel, type Period } from './period';
import { REPORT_TEXTS } from './texts';

/**
 * A report's figures as one document of sections (figures and small tables), from which the
 * CSV, the PDF and the mail's text are all written, so the three always say the same thing. Each
 * is written in a language (English unless asked): a recipient gets the one they chose.
 */

/** What reports.summary holds: the figures and what is needed to present them again later. */
export interface ReportSummary extends ReportFigures {
  title: string;
  company: { name: string; hostname: string };
  timezone: string;
  period: { start: string; end: string; label: string };
  madeAt: string;
  headline: HeadlineFigure[];
}

export function reportTitle(kind: ReportKind, locale: Locale = 'en'): string {
  return kind === 'weekly' ? REPORT_TEXTS[locale].weekly : REPORT_TEXTS[locale].report;
}

/**
 * The summary with its title and period written in a language (a stored summary holds them in
 * English, as it was made).
 */
export function summaryIn(summary: ReportSummary, locale: Locale): ReportSummary {
  if (locale === 'en') return summary;
  const kind: ReportKind = summary.title === reportTitle('weekly') ? 'weekly' : 'on_demand';
  const period = { start: new Date(summary.period.start), end: new Date(summary.period.end) };
  return {
    ...summary,
    title: reportTitle(kind, locale),
    period: { ...summary.period, label: periodLabel(period, summary.timezone, locale) },
  };
}

export function summarise(input: {
  kind: ReportKind;
  company: { name: string; hostname: string };
  timezone: string;
  period: Period;
  madeAt: Date;
  figures: ReportFigures;
}): ReportSummary {
  return {
    title: reportTitle(input.kind),
    company: input.company,
    timezone: input.timezone,
    period: {
      start: input.period.start.toISOString(),
      end: input.period.end.toISOString(),
      label: periodLabel(input.period, input.timezone),
    },
    madeAt: input.madeAt.toISOString(),
    headline: headlineOf(input.figures),
    ...input.figures,
  };
}

/** "Weekly report of Acme: 2 Nov 2026 – 8 Nov 2026", the mail's subject and the PDF's title. */
export function reportHeading(summary: ReportSummary, locale: Locale = 'en'): string {
  const shown = summaryIn(summary, locale);
  return REPORT_TEXTS[locale].heading(shown.title, shown.company.name, shown.period.label);
}

export type Cell = string | number;

export interface ReportTable {
  caption: string;
  columns: string[];
  rows: Cell[][];
  /** Shown instead of an empty table. */
  empty: string;
}

export interface ReportSection {
  title: string;
  figures: Array<[label: string, value: number]>;
  tables: ReportTable[];
}

export function reportSections(summary: ReportSummary, locale: Locale = 'en'): ReportSection[] {
  const { runs, quality, security, usage } = summary;
  const words = REPORT_TEXTS[locale];
  const { figures: label, status } = words;
  return [
    {
      title: words.sections.runs,
      figures: [
        [label.runs, runs.total],
        // In a fixed order: a summary read back from jsonb has its keys in jsonb's own order.
        ...RUN_STATUSES.map((run): [string, number] => [status[run], runs.byStatus[run] ?? 0]),
        [label.rowsCopied, runs.rowsCopied],
      ],
      tables: [
        {
          caption: words.failingWorkflows.caption,
          columns: [words.failingWorkflows.workflow, words.failingWorkflows.failedRuns],
          rows: runs.failingWorkflows.map((workflow) => [workflow.name, workflow.failures]),
          empty: words.failingWorkflows.empty,
        },
      ],
    },
    {
      title: words.sections.quality,
      figures: [
        [label.checkRuns, quality.runs],
        ...QUALITY_STATUSES.map((result): [string, number] => [words.runsWith(status[result]), quality.runsByStatus[result] ?? 0]),
        [label.checks, quality.checks],
        ...QUALITY_STATUSES.map((result): [string, number] => [words.checksWith(status[result]), quality.checksByResult[result] ?? 0]),
      ],
      tables: [
        {
          caption: words.failedChecks.caption,
          columns: [words.failedChecks.table, words.failedChecks.rule, words.failedChecks.failures],
          rows: quality.failedChecks.map((check) => [
            check.table,
            check.column ? `${check.rule} (${check.column})` : check.rule,
            check.failures,
          ]),
          empty: words.failedChecks.empty,
        },
      ],
    },
    {
      title: words.sections.security,
      figures: [
        [label.signIns, security.signIns],
        [label.failedSignIns, security.failedSignIns],
        [label.blocked, security.blocked],
        [label.failedCodes, security.failedCodes],
        [label.newSessions, security.newSessions],
        [label.impersonations, security.impersonations],
        [label.addresses, security.addresses],
      ],
      tables: [],
    },
    {
      title: words.sections.usage,
      figures: [
        [label.activeUsers, usage.activeUsers],
        [label.newUsers, usage.newUsers],
        [label.connections, usage.connections.total],
        [label.connectionsAdded, usage.connections.added],
        [label.tables, usage.tables.total],
        [label.tablesAdded, usage.tables.added],
        [label.workflows, usage.workflows.total],
        [label.workflowsAdded, usage.workflows.added],
        [label.changes, usage.changes],
        [label.apiKeyChanges, usage.apiKeyChanges],
        [label.apiKeyRuns, usage.apiKeyRuns],
      ],
      tables: [],
    },
  ];
}

const numberFormats = new Map<Locale, Intl.NumberFormat>();
export const formatNumber = (value: number, locale: Locale = 'en'): string => {
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(REPORT_TEXTS[locale].numberLocale)));
  // French groups digits with a narrow no-break space, which a PDF's built-in font cannot show.
  return format.format(value).replace(/[\u202f\u00a0]/g, ' ');
};
export const formatCell = (value: Cell, locale: Locale = 'en'): string => (typeof value === 'number' ? formatNumber(value, locale) : value);

/** The mail's plain-text body: the heading, every section's figures and tables, and where to find more. */
export function reportText(summary: ReportSummary, footer: string[], locale: Locale = 'en'): string {
  const colon = locale === 'fr' ? ' :' : ':';
  const lines = [reportHeading(summary, locale), REPORT_TEXTS[locale].timesIn(summary.timezone), ''];
  for (const section of reportSections(summary, locale)) {
    lines.push(section.title);
    const width = Math.max(...section.figures.map(([label]) => label.length + colon.length));
    for (const [label, value] of section.figures) lines.push(`  ${`${label}${colon}`.padEnd(width + 1)}${formatNumber(value, locale)}`);
    for (const table of section.tables) {
      lines.push(`  ${table.caption}${colon}`);
      if (table.rows.length === 0) lines.push(`    ${table.empty}`);
      for (const row of table.rows) {
        const detail = row
          .slice(0, -1)
          .map((cell) => formatCell(cell, locale))
          .join(' / ');
        lines.push(`    ${detail}${colon} ${formatCell(row[row.length - 1], locale)}`);
      }
    }
    lines.push('');
  }
  return [...lines, ...footer, '', '— DataOps Console'].join('\n');
}
