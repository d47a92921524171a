import nodemailer from 'nodemailer';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';

export interface OutgoingMail {
  companyId: string | null;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What the mail is for: 'activation', 'password_reset', ... (shown in the outbox). */
  kind: string;
}

export interface MailResult {
  id: string;
  status: 'stored' | 'sent' | 'failed';
  error?: string;
}

export interface Mailer {
  /** Records the mail in the outbox, then sends it through SMTP when SMTP is configured. */
  send(mail: OutgoingMail): Promise<MailResult>;
  readonly transport: 'smtp' | 'outbox';
}

export function createMailer(db: Db, options: { smtpUrl?: string; from: string }): Mailer {
  const transporter = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  return {
    transport: transporter ? 'smtp' : 'outbox',
    async send(mail) {
      const [row] = await db
        .insert(mailOutbox)
        .values({
          companyId: mail.companyId,
          toAddress: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html ?? null,
          kind: mail.kind,
          status: 'stored',
        })
        .returning({ id: mailOutbox.id });
      if (!transporter) return { id: row.id, status: 'stored' };
      try {
        await transporter.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        await db.update(mailOutbox).set({ status: 'sent', sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
        return { id: row.id, status: 'sent' };
      } catch (err) {
        const error = (err as Error).message;
        await db.update(mailOutbox).set({ status: 'failed', error }).where(eq(mailOutbox.id, row.id));
        return { id: row.id, status: 'failed', error };
      }
    },
  };
}
