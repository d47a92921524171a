import type { FastifyRequest } from 'fastify';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { companies, reportAttachments, reports, roles, users } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import { recipientLocales } from '../mail/recipients';
import { recordAudit } from '../audit';
import { badRequest } from '../http/errors';
import { isUniqueViolation } from '../http/database-errors';
import { DEFERRED_JOIN_FROM, deferredIds, inlined, listPage, type ListAnswer } from '../http/lists';
import type { ReportFormat, ReportKind } from '../../common/schemas/reports';
import type { Locale } from '../../common/locales';
import { reportFigures, type HeadlineFigure } from './figures';
import { reportHeading, reportText, summarise, type ReportSummary } from './document';
import { reportFile, type ReportFile } from './files';
import { REPORT_TEXTS } from './texts';
import { reportTimeZone, type Period } from './period';

/** What making and mailing reports needs: the database, the mailer, and where links in mails lead. */
export interface ReportServices {
  db: Db;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'port'>;
}

/** The console's address for mails sent outside a request (the weekly sweep), as run links do. */
export function defaultLinkBase(config: ReportServices['config']): string {
  return (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
}

export interface ReportCompany {
  id: string;
  name: string;
  hostname: string;
  /** Its time zone, or UTC when the stored one is not a zone (see reportTimeZone). */
  timezone: string;
  createdAt: Date;
}

export async function reportCompany(db: Db, companyId: string): Promise<ReportCompany | null> {
  const [company] = await db
    .select({
      id: companies.id,
      name: companies.name,
      hostname: companies.hostname,
      timezone: companies.timezone,
      createdAt: companies.createdAt,
    })
    .from(companies)
    .where(eq(companies.id, companyId));
  return company ? { ...company, timezone: reportTimeZone(company.timezone) } : null;
}

export interface Recipient {
  id: string;
  email: string;
  name: string;
}

const nameOf = (user: { firstName: string; lastName: string; email: string }) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;

/**
 * These users, who must all be active users of the company; a 400 names the field and every id
 * that is not one (unknown, of another company, invited or deactivated alike).
 */
export async function activeUsersByIds(db: Db, companyId: string, ids: readonly string[], field: string): Promise<Recipient[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.id, [...ids]), eq(users.status, 'active'), eq(users.isActive, true)));
  const known = new Set(found.map((user) => user.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length === 1) throw badRequest(`${field}: this id is not an active user of the company: ${unknown[0]}`);
  if (unknown.length > 1) throw badRequest(`${field}: these ids are not active users of the company: ${unknown.join(', ')}`);
  const byId = new Map(found.map((user) => [user.id, { id: user.id, email: user.email, name: nameOf(user) }]));
  return ids.map((id) => byId.get(id)!);
}

/** Every active user of the company whose role is an active admin role: who gets every report. */
export async function companyAdmins(db: Db, companyId: string): Promise<Recipient[]> {
  const rows = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
    .where(
      and(
        eq(users.companyId, companyId),
        eq(roles.isAdmin, true),
        eq(roles.isActive, true),
        eq(users.status, 'active'),
        eq(users.isActive, true),
      ),
    )
    .orderBy(users.email);
  return rows.map((user) => ({ id: user.id, email: user.email, name: nameOf(user) }));
}

export interface MakeReport {
  company: ReportCompany;
  kind: ReportKind;
  period: Period;
  format: ReportFormat;
  /** Mailed besides the company's admins (on-demand reports: the chosen users and the one who asked). */
  extraRecipients?: Recipient[];
  createdBy?: string | null;
  /** The request behind an on-demand report, for the audit entry; null for the weekly sweep. */
  request?: FastifyRequest | null;
  /** The console's address, for the link in the mail. */
  linkBase: string;
  now?: Date;
}

/**
 * Reads the period's figures, writes the attachment, stores the report and mails it. A weekly
 * report that another server (or an earlier sweep) stored first for the same week is not made
 * again: the unique index on (company, period start) refuses it and this answers null.
 */
export async function makeReport(services: ReportServices, input: MakeReport): Promise<ReportDetail | null> {
  const { db } = services;
  const { company } = input;
  const madeAt = input.now ?? new Date();
  const figures = await reportFigures(db, company.id, input.period);
  const summary = summarise({ kind: input.kind, company, timezone: company.timezone, period: input.period, madeAt, figures });
  const file = await reportFile(summary, input.format);
  const recipients = new Map<string, Recipient>();
  for (const person of [...(await companyAdmins(db, company.id)), ...(input.extraRecipients ?? [])]) recipients.set(person.id, person);

  let reportId: string;
  try {
    reportId = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(reports)
        .values({
          companyId: company.id,
          kind: input.kind,
          periodStart: input.period.start,
          periodEnd: input.period.end,
          summary: summary as unknown as Record<string, unknown>,
          format: input.format,
          recipients: [...recipients.values()].map((person) => person.email),
          createdBy: input.createdBy ?? null,
          createdAt: madeAt,
        })
        .returning({ id: reports.id });
      await tx.insert(reportAttachments).values({
        companyId: company.id,
        reportId: row.id,
        fileName: file.fileName,
        contentType: file.contentType,
        size: file.content.length,
        bytes: file.content,
      });
      await recordAudit(tx, input.request ?? null, {
        companyId: company.id,
        model: 'report',
        operation: 'create',
        recordId: row.id,
        userId: input.createdBy ?? null,
        changes: {
          kind: input.kind,
          periodStart: input.period.start.toISOString(),
          periodEnd: input.period.end.toISOString(),
          format: input.format,
          recipients: recipients.size,
        },
      });
      return row.id;
    });
  } catch (err) {
    if (input.kind === 'weekly' && isUniqueViolation(err)) return null;
    throw err;
  }
  await deliverReport(services, company.id, reportId, input.linkBase);
  return findReport(db, company.id, reportId);
}

/**
 * Mails a stored report to its recipients, once: the report is claimed by setting its sentAt,
 * so of several servers (or a sweep finding a report a crash left unsent) only one mails it.
 * False when it had already been claimed. Each recipient gets the mail and its file in the
 * language they chose in the console (the stored file is the English one).
 */
export async function deliverReport(services: ReportServices, companyId: string, reportId: string, linkBase: string): Promise<boolean> {
  const { db, mailer } = services;
  const [claimed] = await db
    .update(reports)
    .set({ sentAt: new Date() })
    .where(and(eq(reports.companyId, companyId), eq(reports.id, reportId), isNull(reports.sentAt)))
    .returning({ summary: reports.summary, recipients: reports.recipients, format: reports.format });
  if (!claimed) return false;
  const stored = await attachmentFiles(db, companyId, reportId);
  const summary = claimed.summary as unknown as ReportSummary;
  const locales = await recipientLocales(db, companyId, claimed.recipients);
  const mails = new Map<Locale, { subject: string; text: string; files: ReportFile[] }>();
  const mailIn = async (locale: Locale) => {
    let mail = mails.get(locale);
    if (!mail) {
      // A file of a known format is written again in the recipient's language; any other goes as it is.
      const files =
        locale === 'en' || stored.length !== 1 || !isReportFormat(claimed.format)
          ? stored
          : [await reportFile(summary, claimed.format, locale)];
      const words = REPORT_TEXTS[locale];
      const text = reportText(
        summary,
        [
          words.attached(files.length === 1 ? files[0].fileName : null),
          words.everyReport(summary.company.name, `${linkBase}/reports?report=${reportId}`),
        ],
        locale,
      );
      mails.set(locale, (mail = { subject: reportHeading(summary, locale), text, files }));
    }
    return mail;
  };
  for (const to of claimed.recipients) {
    const { subject, text, files } = await mailIn(locales.get(to) ?? 'en');
    await mailer.send({ companyId, to, subject, text, kind: 'report', attachments: files });
  }
  return true;
}

const isReportFormat = (format: string): format is ReportFormat => format === 'csv' || format === 'pdf';

export async function attachmentFiles(db: Db, companyId: string, reportId: string) {
  const rows = await db
    .select({ fileName: reportAttachments.fileName, contentType: reportAttachments.contentType, content: reportAttachments.bytes })
    .from(reportAttachments)
    .where(and(eq(reportAttachments.companyId, companyId), eq(reportAttachments.reportId, reportId)))
    .orderBy(reportAttachments.createdAt);
  return rows;
}

// ---- Reading -------------------------------------------------------------------------------------

export interface AttachmentInfo {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
}

export interface ReportRow {
  id: string;
  kind: string;
  title: string;
  periodStart: Date;
  periodEnd: Date;
  periodLabel: string;
  timezone: string;
  format: string;
  recipients: string[];
  createdBy: string | null;
  createdByName: string | null;
  createdAt: Date;
  sentAt: Date | null;
  headline: HeadlineFigure[];
  attachments: AttachmentInfo[];
}

export interface ReportDetail extends ReportRow {
  summary: ReportSummary;
}

const rowColumns = {
  id: reports.id,
  kind: reports.kind,
  periodStart: reports.periodStart,
  periodEnd: reports.periodEnd,
  format: reports.format,
  recipients: reports.recipients,
  createdBy: reports.createdBy,
  createdAt: reports.createdAt,
  sentAt: reports.sentAt,
  creatorFirstName: users.firstName,
  creatorLastName: users.lastName,
  creatorEmail: users.email,
};
// The list reads only the parts of the summary it shows, not the whole document.
const listColumns = {
  ...rowColumns,
  title: sql<string | null>`${reports.summary}->>'title'`,
  periodLabel: sql<string | null>`${reports.summary}->'period'->>'label'`,
  timezone: sql<string | null>`${reports.summary}->>'timezone'`,
  headline: sql<HeadlineFigure[] | null>`${reports.summary}->'headline'`,
};

function selectReports(db: Db) {
  return db
    .select(listColumns)
    .from(reports)
    .leftJoin(users, and(eq(users.companyId, reports.companyId), eq(users.id, reports.createdBy)));
}

type ListRow = Awaited<ReturnType<typeof selectReports>>[number];

function toRow(row: ListRow, attachments: AttachmentInfo[]): ReportRow {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title ?? (row.kind === 'weekly' ? 'Weekly report' : 'Report'),
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    periodLabel: row.periodLabel ?? `${row.periodStart.toISOString()} – ${row.periodEnd.toISOString()}`,
    timezone: row.timezone ?? 'UTC',
    format: row.format,
    recipients: row.recipients,
    createdBy: row.createdBy,
    createdByName: row.creatorEmail
      ? nameOf({ firstName: row.creatorFirstName ?? '', lastName: row.creatorLastName ?? '', email: row.creatorEmail })
      : null,
    createdAt: row.createdAt,
    sentAt: row.sentAt,
    headline: row.headline ?? [],
    attachments,
  };
}

async function attachmentsOf(db: Db, companyId: string, reportIds: string[]): Promise<Map<string, AttachmentInfo[]>> {
  const byReport = new Map<string, AttachmentInfo[]>();
  if (reportIds.length === 0) return byReport;
  const rows = await db
    .select({
      id: reportAttachments.id,
      reportId: reportAttachments.reportId,
      fileName: reportAttachments.fileName,
      contentType: reportAttachments.contentType,
      size: reportAttachments.size,
    })
    .from(reportAttachments)
    .where(and(eq(reportAttachments.companyId, companyId), inArray(reportAttachments.reportId, reportIds)))
    .orderBy(reportAttachments.createdAt);
  for (const { reportId, ...file } of rows) byReport.set(reportId, [...(byReport.get(reportId) ?? []), file]);
  return byReport;
}

/** The company's reports, newest first, each with its attachments and headline figures. */
export async function listReports(db: Db, companyId: string, offset: number, limit: number): Promise<ListAnswer<ReportRow>> {
  const where = eq(reports.companyId, companyId);
  const answer = await listPage(
    db,
    {
      page: async (o, l) => {
        const order = [desc(reports.createdAt), desc(reports.id)];
        return o >= DEFERRED_JOIN_FROM
          ? selectReports(db)
              .where(await deferredIds(db, { table: reports, id: reports.id, where, order }, o, l))
              .orderBy(...order)
              .limit(inlined(l))
          : selectReports(db)
              .where(where)
              .orderBy(...order)
              .offset(inlined(o))
              .limit(inlined(l));
      },
      countFrom: reports,
      where,
    },
    offset,
    limit,
  );
  const files = await attachmentsOf(
    db,
    companyId,
    answer.rows.map((row) => row.id),
  );
  return { ...answer, rows: answer.rows.map((row) => toRow(row, files.get(row.id) ?? [])) };
}

/** One report of the company with its whole summary, or null (another company's is null too). */
export async function findReport(db: Db, companyId: string, reportId: string): Promise<ReportDetail | null> {
  const [row] = await db
    .select({ ...listColumns, summary: reports.summary })
    .from(reports)
    .leftJoin(users, and(eq(users.companyId, reports.companyId), eq(users.id, reports.createdBy)))
    .where(and(eq(reports.companyId, companyId), eq(reports.id, reportId)));
  if (!row) return null;
  const files = await attachmentsOf(db, companyId, [row.id]);
  return { ...toRow(row, files.get(row.id) ?? []), summary: row.summary as unknown as ReportSummary };
}

/** One attachment of one of the company's reports, with its bytes. */
export async function findAttachment(db: Db, companyId: string, reportId: string, attachmentId: string) {
  const [file] = await db
    .select({ fileName: reportAttachments.fileName, contentType: reportAttachments.contentType, bytes: reportAttachments.bytes })
    .from(reportAttachments)
    .where(
      and(eq(reportAttachments.companyId, companyId), eq(reportAttachments.reportId, reportId), eq(reportAttachments.id, attachmentId)),
    );
  return file ?? null;
}
