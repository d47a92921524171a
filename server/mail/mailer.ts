import type { Transporter } from 'nodemailer';
import { eq } from 'drizzle-orm';
import type { Locale } from '../../common/locales';
import type { Db } from '../db/client';
import { mailOutbox, NO_COMPANY } from '../db/schema';
import { withTenant } from '../db/tenant-scope';
import { recipientLocale } from './recipients';

export interface MailAttachment {
  fileName: string;
  contentType: string;
  content: Buffer;
}

export interface OutgoingMail {
  companyId: string | null;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What the mail is for: 'activation', 'password_reset', ... (shown in the outbox). */
  kind: string;
  attachments?: MailAttachment[];
  /**
   * The same mail in other languages: a recipient who is a user of the company and chose one of
   * them in the console gets it in that language; anyone else gets the English above.
   */
  translations?: Partial<Record<Locale, { subject: string; text: string; html?: string }>>;
}

export interface MailResult {
  id: string;
  status: 'stored' | 'sent' | 'failed';
  error?: string;
}

/** Where a mail goes out: an SMTP transport and the sender it writes. */
export interface MailRoute {
  transporter: Pick<Transporter, 'sendMail'>;
  from: string;
}

/**
 * A company's own mail route (its email settings), or null to use the instance's (SMTP_URL).
 * A route that cannot be made (its settings are unreadable) throws: the mail is kept as failed.
 */
export type CompanyMailRoute = (companyId: string) => Promise<MailRoute | null>;

export interface Mailer {
  /** Records the mail in the outbox, then sends it through the company's or the instance's SMTP when there is one. */
  send(mail: OutgoingMail): Promise<MailResult>;
  /** The instance's own transport: SMTP_URL, or the outbox alone. */
  readonly transport: 'smtp' | 'outbox';
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  companyRoute?: CompanyMailRoute;
}

/** nodemailer, loaded at the first mail sent through SMTP: a server that only keeps its outbox never holds it. */
export async function loadNodemailer() {
  return (await import('nodemailer')).default;
}

export function createMailer(db: Db, options: MailerOptions): Mailer {
  const { smtpUrl } = options;
  let instanceTransport: Promise<MailRoute> | undefined;
  /** SMTP_URL's transport, made at the first mail it carries. */
  const instanceRoute = (): Promise<MailRoute | null> => {
    if (!smtpUrl) return Promise.resolve(null);
    instanceTransport ??= loadNodemailer().then((nodemailer) => ({ transporter: nodemailer.createTransport(smtpUrl), from: options.from }));
    return instanceTransport;
  };
  const fail = async (id: string, error: string): Promise<MailResult> => {
    await db.update(mailOutbox).set({ status: 'failed', error }).where(eq(mailOutbox.id, id));
    return { id, status: 'failed', error };
  };
  return {
    transport: smtpUrl ? 'smtp' : 'outbox',
    send(mail) {
      // The mail is its company's (a mail of no company is the instance's own, NO_COMPANY's): written and marked in that scope, whoever sends it.
      return withTenant(mail.companyId ?? NO_COMPANY, () => sendMail(mail));
    },
  };

  /** The mail in the recipient's language, where it comes with translations. */
  async function localised({ translations, ...mail }: OutgoingMail): Promise<OutgoingMail> {
    if (!translations || !mail.companyId || Object.keys(translations).length === 0) return mail;
    const translation = translations[await recipientLocale(db, mail.companyId, mail.to)];
    return translation ? { ...mail, ...translation } : mail;
  }

  async function sendMail(outgoing: OutgoingMail): Promise<MailResult> {
    const mail = await localised(outgoing);
    const [row] = await db
      .insert(mailOutbox)
      .values({
        companyId: mail.companyId ?? NO_COMPANY,
        toAddress: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? null,
        kind: mail.kind,
        attachments: (mail.attachments ?? []).map((file) => ({
          fileName: file.fileName,
          contentType: file.contentType,
          size: file.content.length,
        })),
        status: 'stored',
      })
      .returning({ id: mailOutbox.id });
    let route: MailRoute | null;
    try {
      const own = mail.companyId && options.companyRoute ? await options.companyRoute(mail.companyId) : null;
      route = own ?? (await instanceRoute());
    } catch (err) {
      return fail(row.id, (err as Error).message);
    }
    if (!route) return { id: row.id, status: 'stored' };
    try {
      await route.transporter.sendMail({
        from: route.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments?.map((file) => ({ filename: file.fileName, contentType: file.contentType, content: file.content })),
      });
      await db.update(mailOutbox).set({ status: 'sent', sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
      return { id: row.id, status: 'sent' };
    } catch (err) {
      return fail(row.id, (err as Error).message);
    }
  }
}
