import type { FastifyRequest } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import type { AuthContext } from '../auth/guard';
import type { Db } from '../db/client';
import { shares, users } from '../db/schema';
import { recordAudit } from '../audit';
import { notFound } from '../http/errors';
import type { Locale } from '../../common/locales';
import type { MailAttachment } from '../mail/mailer';
import { notify } from '../notify';
import type { shareBody } from '../../common/schemas/reports';
import type { z } from 'zod';
import { reportTitle } from './document';
import { periodLabel } from './period';
import { activeUsersByIds, attachmentFiles, findReport, type ReportServices } from './reports';

export type ShareInput = z.output<typeof shareBody>;
export type ShareRow = typeof shares.$inferSelect;

/** The console path a shared report opens: the reports page with that report shown. */
export const reportPath = (reportId: string) => `/reports?report=${encodeURIComponent(reportId)}`;

/**
 * Shares a report or a list view with chosen users of the company: each gets an in-app
 * notification that opens it and a mail with the link (and, for a report, its attachment).
 * Recipients must be active users of the company; a report of another company is a 404.
 */
export async function createShare(
  services: ReportServices,
  request: FastifyRequest,
  auth: AuthContext,
  body: ShareInput,
  linkBase: string,
): Promise<ShareRow> {
  const { db, mailer } = services;
  const recipients = await activeUsersByIds(db, auth.companyId, body.userIds, 'userIds');
  let title: string;
  let path: string;
  let files: MailAttachment[] = [];
  // The title in a recipient's language: a report's is written again in it; a view's is the sharer's own.
  let titleIn = (_locale: Locale) => title;
  if (body.kind === 'report') {
    const report = await findReport(db, auth.companyId, body.reportId);
    if (!report) throw notFound('Report');
    title = `${report.title}: ${report.periodLabel}`;
    titleIn = (locale) => {
      if (locale === 'en') return title;
      const kind = report.kind === 'weekly' ? 'weekly' : 'on_demand';
      const period = periodLabel({ start: report.periodStart, end: report.periodEnd }, report.timezone, locale);
      return `${reportTitle(kind, locale)} : ${period}`;
    };
    path = reportPath(report.id);
    files = await attachmentFiles(db, auth.companyId, report.id);
  } else {
    title = body.title;
    path = body.path;
  }
  const sharer = await sharerName(db, auth);

  const share = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(shares)
      .values({
        companyId: auth.companyId,
        kind: body.kind,
        reportId: body.kind === 'report' ? body.reportId : null,
        path: body.kind === 'list' ? body.path : null,
        title,
        message: body.message,
        recipientIds: recipients.map((person) => person.id),
        createdBy: auth.userId,
      })
      .returning();
    await notify(tx, {
      companyId: auth.companyId,
      to: recipients.map((person) => person.id),
      type: 'share',
      title: `${sharer} shared "${title}" with you`,
      message: body.message,
      link: path,
      createdBy: auth.userId,
    });
    await recordAudit(tx, request, {
      companyId: auth.companyId,
      model: 'share',
      operation: 'create',
      recordId: row.id,
      changes: { kind: row.kind, reportId: row.reportId, path: row.path, title, recipientIds: row.recipientIds },
    });
    return row;
  });

  const link = `${linkBase}${path}`;
  const fileNames = files.map((file) => file.fileName).join(', ');
  for (const person of recipients) {
    const mailIn = (locale: Locale) =>
      shareMail(locale, { name: person.name, sharer, kind: body.kind, title: titleIn(locale), message: body.message, link, fileNames });
    await mailer.send({
      companyId: auth.companyId,
      to: person.email,
      ...mailIn('en'),
      translations: { fr: mailIn('fr') },
      kind: 'share',
      attachments: files,
    });
  }
  return share;
}

async function sharerName(db: Db, auth: AuthContext): Promise<string> {
  const [user] = await db
    .select({ firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId)));
  return user ? [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email : auth.email;
}

/** Whether a report was shared with this user: they may then read it without the reports policy. */
export async function sharedWith(db: Db, companyId: string, reportId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(shares)
    .where(and(eq(shares.companyId, companyId), eq(shares.reportId, reportId), sql`${userId}::uuid = any(${shares.recipientIds})`))
    .limit(1);
  return Boolean(row);
}

/** The mail that tells a user something was shared with them, in their language. */
function shareMail(
  locale: Locale,
  input: { name: string; sharer: string; kind: 'report' | 'list'; title: string; message?: string | null; link: string; fileNames: string },
): { subject: string; text: string } {
  const quoted = input.message ? ['', ...input.message.split(/\r?\n/).map((line) => `> ${line}`)] : [];
  if (locale === 'fr') {
    return {
      subject: `${input.sharer} a partagé « ${input.title} » avec vous`,
      text: [
        `Bonjour ${input.name},`,
        '',
        `${input.sharer} a partagé ${input.kind === 'report' ? 'un rapport' : 'une vue de la console'} avec vous : ${input.title}.`,
        ...quoted,
        '',
        `L’ouvrir : ${input.link}`,
        ...(input.fileNames ? ['', `Le rapport est joint (${input.fileNames}).`] : []),
        '',
        '— DataOps Console',
      ].join('\n'),
    };
  }
  return {
    subject: `${input.sharer} shared "${input.title}" with you`,
    text: [
      `Hello ${input.name},`,
      '',
      `${input.sharer} shared ${input.kind === 'report' ? 'a report' : 'a view of the console'} with you: ${input.title}.`,
      ...quoted,
      '',
      `Open it: ${input.link}`,
      ...(input.fileNames ? ['', `The report is attached (${input.fileNames}).`] : []),
      '',
      '— DataOps Console',
    ].join('\n'),
  };
}
