import { senderOf } from '../../common/settings';
import { escapeHtml, type MailContent } from '../mail/templates';
import type { Reach } from '../reach/reach';
import { smtpFailure, smtpTransport, smtpWords, type SmtpSettings } from './mail-route';

/** What a test mail found: whether the server took it, and the server's own words either way. */
export interface TestMailOutcome {
  ok: boolean;
  /** The SMTP server's answer ("250 Accepted …"), or why it failed (smtpFailure: its reply cut short, or "Could not reach the mail server at HOST:PORT"). */
  detail: string;
  to: string;
  /** host:port it went to. */
  server: string;
}

export function testMailContent(input: { companyName: string; senderName: string; server: string; sentAt: Date }): MailContent {
  const when = `${input.sentAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`;
  const lines = [
    `This is a test mail from the email settings of ${input.companyName}, sent by ${input.senderName} on ${when}.`,
    `It went out through ${input.server}. If you can read it, the mails of ${input.companyName} (invitations, password resets, failure notices, reports) will go out this way.`,
  ];
  return {
    subject: `Test mail from the email settings of ${input.companyName}`,
    text: [...lines, ''].join('\n\n'),
    html: `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#222;line-height:1.5">${lines
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('')}</body></html>`,
  };
}

/** Sends one mail through these settings with a transport of its own (never the one kept for the company). */
export async function sendTestMail(settings: SmtpSettings, to: string, content: MailContent, reach: Reach): Promise<TestMailOutcome> {
  const server = `${settings.host}:${settings.port}`;
  const transporter = await smtpTransport(settings, reach);
  try {
    const info = await transporter.sendMail({
      from: senderOf(settings),
      to,
      subject: content.subject,
      text: content.text,
      html: content.html,
    });
    return { ok: true, detail: (info.response && smtpWords(info.response)) || 'Accepted', to, server };
  } catch (error) {
    return { ok: false, detail: smtpFailure(error, settings.host.replace(/^\[|\]$/g, ''), settings.port), to, server };
  } finally {
    transporter.close();
  }
}
