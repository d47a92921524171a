import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { senderOf, type EmailSettings } from '../../common/settings';
import type { Secrets } from '../auth/secrets';
import type { Db } from '../db/client';
import { loadNodemailer, type CompanyMailRoute, type MailRoute } from '../mail/mailer';
import { ConnectorError } from '../connectors/types';
import type { Reach } from '../reach/reach';
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

/**
 * nodemailer's transport for these settings. Its socket comes from the reach guard: the mail
 * server's host is checked, and only its checked addresses dialled, before a word is sent; the
 * host name stays for TLS, which checks the certificate against it.
 */
export async function smtpTransport(settings: SmtpSettings, reach: Reach): Promise<Transporter<SMTPTransport.SentMessageInfo>> {
  const host = settings.host.replace(/^\[|\]$/g, '');
  const nodemailer = await loadNodemailer();
  return nodemailer.createTransport({
    host,
    port: settings.port,
    getSocket: (_options, callback) => {
      reach.check({ host, port: settings.port }).then(
        (target) => {
          const socket = target.connect();
          const fail = (error: Error) => {
            socket.destroy();
            callback(error, undefined as never);
          };
          socket.setTimeout(SMTP_TIMEOUTS_MS.connection, () => fail(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })));
          socket.once('error', fail);
          socket.once('connect', () => {
            socket.setTimeout(0);
            socket.off('error', fail);
            callback(null, { connection: socket });
          });
        },
        (error: Error) => callback(error, undefined as never),
      );
    },
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

export function createCompanyMailRoutes(db: Db, secrets: Secrets, reach: Reach): CompanyMailRoutes {
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
      throw new Error(
        "The company's SMTP password cannot be read (was the instance secret changed?); enter it again in the email settings",
      );
    }
    const transporter = await smtpTransport({ ...settings, password }, reach);
    // A call beside this one may have made the same route meanwhile: one transport per company.
    const meanwhile = kept.get(companyId);
    if (meanwhile?.fingerprint === fingerprint) {
      transporter.close();
      return meanwhile.route;
    }
    drop(companyId);
    const made: CachedRoute = { fingerprint, route: { transporter, from: senderOf(settings) } };
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

/** The most of a mail server's own words a message carries. */
const SMTP_WORDS_MAX = 200;

/** A mail server's reply as one printable line of at most 200 characters. */
export function smtpWords(reply: string): string {
  const said = reply
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return said.length > SMTP_WORDS_MAX ? `${said.slice(0, SMTP_WORDS_MAX - 1)}…` : said;
}

/**
 * A mail server's refusal as a person reads it: its reply (`535 5.7.8 Authentication failed`)
 * cut to 200 characters; a server that cannot be reached — refused, closed, timed out, or
 * something other than SMTP on that port — reads the same whatever the cause; the reach guard's
 * refusal as it is.
 */
export function smtpFailure(error: unknown, host: string, port: number): string {
  if (error instanceof ConnectorError) return error.message;
  const { code, response, responseCode } = (error ?? {}) as { code?: string; response?: string; responseCode?: number };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `The mail server ${host} could not be found`;
  if (typeof responseCode === 'number' && responseCode >= 400 && typeof response === 'string') {
    const words = smtpWords(response);
    return code === 'EAUTH' ? `The mail server did not accept the sign-in: ${words}` : `The mail server refused the mail: ${words}`;
  }
  return `Could not reach the mail server at ${host.includes(':') ? `[${host}]` : host}:${port}`;
}
