import type { ReportKind } from '../../common/schemas/reports';
import { RUN_STATUSES } from '../../common/schemas/workflows';
import { RUN_STATUS_LABELS } from '../workflows/run-statuses';
import { QUALITY_STATUSES, headlineOf, type HeadlineFigure, type ReportFigures } from './figures';
import { periodLabel, type Period } from './period';

/**
 * A report's figures as one document of sections (figures and small tables), from which the
 * CSV, the PDF and the mail's text are all written, so the three always say the same thing.
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

export function reportTitle(kind: ReportKind): string {
  return kind === 'weekly' ? 'Weekly report' : 'Report';
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
export function reportHeading(summary: ReportSummary): string {
  return `${summary.title} of ${summary.company.name}: ${summary.period.label}`;
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

const STATUS_LABELS: Record<string, string> = {
  ...RUN_STATUS_LABELS,
  passed: 'Passed',
  warned: 'Warned',
  error: 'Could not be measured',
};

export function reportSections(summary: ReportSummary): ReportSection[] {
  const { runs, quality, security, usage } = summary;
  return [
    {
      title: 'Job runs',
      figures: [
        ['Runs', runs.total],
        // In a fixed order: a summary read back from jsonb has its keys in jsonb's own order.
        ...RUN_STATUSES.map((status): [string, number] => [STATUS_LABELS[status], runs.byStatus[status] ?? 0]),
        ['Rows copied', runs.rowsCopied],
      ],
      tables: [
        {
          caption: 'Workflows that failed most',
          columns: ['Workflow', 'Failed runs'],
          rows: runs.failingWorkflows.map((workflow) => [workflow.name, workflow.failures]),
          empty: 'No run failed.',
        },
      ],
    },
    {
      title: 'Data quality',
      figures: [
        ['Check runs', quality.runs],
        ...QUALITY_STATUSES.map((status): [string, number] => [
          `Runs ${STATUS_LABELS[status].toLowerCase()}`,
          quality.runsByStatus[status] ?? 0,
        ]),
        ['Checks', quality.checks],
        ...QUALITY_STATUSES.map((status): [string, number] => [
          `Checks ${STATUS_LABELS[status].toLowerCase()}`,
          quality.checksByResult[status] ?? 0,
        ]),
      ],
      tables: [
        {
          caption: 'Failed checks by table and rule',
          columns: ['Table', 'Rule', 'Failures'],
          rows: quality.failedChecks.map((check) => [
            check.table,
            check.column ? `${check.rule} (${check.column})` : check.rule,
            check.failures,
          ]),
          empty: 'No check failed.',
        },
      ],
    },
    {
      title: 'Security',
      figures: [
        ['Sign-ins', security.signIns],
        ['Failed sign-ins', security.failedSignIns],
        ['Blocked attempts (too many failures)', security.blocked],
        ['Failed two-factor codes', security.failedCodes],
        ['New sessions', security.newSessions],
        ['Impersonation sessions', security.impersonations],
        ['Distinct addresses', security.addresses],
      ],
      tables: [],
    },
    {
      title: 'Usage',
      figures: [
        ['Active users (signed in)', usage.activeUsers],
        ['New users', usage.newUsers],
        ['Connections', usage.connections.total],
        ['Connections added', usage.connections.added],
        ['Tables', usage.tables.total],
        ['Tables added', usage.tables.added],
        ['Workflows', usage.workflows.total],
        ['Workflows added', usage.workflows.added],
        ['Changes recorded', usage.changes],
        ['Changes made with API keys', usage.apiKeyChanges],
        ['Runs started with API keys', usage.apiKeyRuns],
      ],
      tables: [],
    },
  ];
}

const numbers = new Intl.NumberFormat('en-GB');
export const formatNumber = (value: number): string => numbers.format(value);
export const formatCell = (value: Cell): string => (typeof value === 'number' ? formatNumber(value) : value);

/** The mail's plain-text body: the heading, every section's figures and tables, and where to find more. */
export function reportText(summary: ReportSummary, footer: string[]): string {
  const lines = [reportHeading(summary), `Times are in ${summary.timezone}.`, ''];
  for (const section of reportSections(summary)) {
    lines.push(section.title);
    const width = Math.max(...section.figures.map(([label]) => label.length));
    for (const [label, value] of section.figures) lines.push(`  ${`${label}:`.padEnd(width + 2)}${formatNumber(value)}`);
    for (const table of section.tables) {
      lines.push(`  ${table.caption}:`);
      if (table.rows.length === 0) lines.push(`    ${table.empty}`);
      for (const row of table.rows) lines.push(`    ${row.slice(0, -1).map(formatCell).join(' / ')}: ${formatCell(row[row.length - 1])}`);
    }
    lines.push('');
  }
  return [...lines, ...footer, '', '— DataOps Console'].join('\n');
}
