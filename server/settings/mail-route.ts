import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { senderOf, type EmailSettings } from '../../common/settings';
import type { Secrets } from '../auth/secrets';
import type { Db } from '../db/client';
import type { CompanyMailRoute, MailRoute } from '../mail/mailer';
import { emailSettingsFrom, openEmailSecrets, readSettingsRow } from './store';

/**
 * A company's mail goes out through its own SMTP server when its email settings name one
 * (server/mail/mailer.ts asks this for each mail of a company). The transport is made once per
 * company and kept while the stored settings stay the same: each mail reads the settings row (one
 * primary-key lookup), so a change made by this server or another one sharing the database takes
 * effect on the next mail and drops the old transport.
 */

/** How long an SMTP server may take to answer, before the mail counts as failed. */
export const SMTP_TIMEOUTS_MS = { connection: 15_000, greeting: 15_000, socket: 30_000 } as const;

export interface SmtpSettings extends EmailSettings {
  password?: string;
}

/** nodemailer's transport for these settings. */
export function smtpTransport(settings: SmtpSettings): Transporter<SMTPTransport.SentMessageInfo> {
  return nodemailer.createTransport({
    host: settings.host.replace(/^\[|\]$/g, ''),
    port: settings.port,
    secure: settings.secure,
    auth: settings.username ? { user: settings.username, pass: settings.password ?? '' } : undefined,
    connectionTimeout: SMTP_TIMEOUTS_MS.connection,
    greetingTimeout: SMTP_TIMEOUTS_MS.greeting,
    socketTimeout: SMTP_TIMEOUTS_MS.socket,
  });
}

interface CachedRoute {
  /** The stored settings the transport was made from. */
  fingerprint: string;
  route: MailRoute & { transporter: Transporter };
}

export interface CompanyMailRoutes {
  route: CompanyMailRoute;
  /** How many companies have a transport kept (for tests and diagnostics). */
  size(): number;
  /** Closes every kept transport. */
  close(): void;
}

export function createCompanyMailRoutes(db: Db, secrets: Secrets): CompanyMailRoutes {
  const kept = new Map<string, CachedRoute>();
  const drop = (companyId: string) => {
    kept.get(companyId)?.route.transporter.close();
    kept.delete(companyId);
  };

  const route: CompanyMailRoute = async (companyId) => {
    const row = await readSettingsRow(db, companyId, 'email');
    const settings = emailSettingsFrom(row?.values);
    if (!row || !settings.host) {
      drop(companyId);
      return null;
    }
    const fingerprint = JSON.stringify([row.values, row.secretsEnc]);
    const cached = kept.get(companyId);
    if (cached?.fingerprint === fingerprint) return cached.route;
    drop(companyId);
    let password: string | undefined;
    try {
      password = openEmailSecrets(secrets, row.secretsEnc).password;
    } catch {
      throw new Error("The company's SMTP password cannot be read (was the instance secret changed?); enter it again in the email settings");
    }
    const made: CachedRoute = { fingerprint, route: { transporter: smtpTransport({ ...settings, password }), from: senderOf(settings) } };
    kept.set(companyId, made);
    return made.route;
  };

  return {
    route,
    size: () => kept.size,
    close() {
      for (const companyId of [...kept.keys()]) drop(companyId);
    },
  };
}
