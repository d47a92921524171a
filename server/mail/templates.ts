import os from 'node:os';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/** The mails the account flows send: plain text for every client, and a simple HTML twin. */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

const PRODUCT = 'DataOps Console';

/**
 * Where links in mails point: PUBLIC_URL when set. Otherwise the address the request came to, but
 * only when it names this machine (localhost, its host name or one of its addresses): a request's
 * Host header is whatever the caller chose to send, and a forged one must not put an outside
 * address into a reset mail. Anything else falls back to http://localhost:PORT.
 */
export function mailLinkBase(config: Pick<Config, 'publicUrl' | 'port'>, request: FastifyRequest): string {
  if (config.publicUrl) return config.publicUrl;
  const host = request.host;
  const hostname = host
    .replace(/:\d+$/, '')
    .replace(/^\[|\]$/g, '')
    .toLowerCase();
  if (localHostnames().has(hostname)) return `${request.protocol}://${host}`;
  return `http://localhost:${config.port}`;
}

let cachedHostnames: Set<string> | null = null;
function localHostnames(): Set<string> {
  if (!cachedHostnames) {
    cachedHostnames = new Set(['localhost', '127.0.0.1', '::1', os.hostname().toLowerCase()]);
    for (const addresses of Object.values(os.networkInterfaces())) {
      for (const address of addresses ?? []) cachedHostnames.add(address.address.toLowerCase());
    }
  }
  return cachedHostnames;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

interface Layout {
  subject: string;
  greeting: string;
  /** Paragraphs before the button. */
  lines: string[];
  /** Label/value pairs shown as a small table (e.g. the temporary password). */
  facts?: [string, string][];
  action?: { label: string; url: string };
  /** Paragraphs after the button. */
  footer: string[];
}

function compose(layout: Layout): MailContent {
  const facts = layout.facts ?? [];
  const text = [
    layout.greeting,
    '',
    ...layout.lines.flatMap((line) => [line, '']),
    ...(facts.length ? [...facts.map(([label, value]) => `${label}: ${value}`), ''] : []),
    ...(layout.action ? [`${layout.action.label}: ${layout.action.url}`, ''] : []),
    ...layout.footer.flatMap((line) => [line, '']),
    `— ${PRODUCT}`,
  ].join('\n');

  const p = (line: string) => `<p>${escapeHtml(line)}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#222;line-height:1.5">',
    p(layout.greeting),
    ...layout.lines.map(p),
    facts.length
      ? `<table>${facts.map(([label, value]) => `<tr><td>${escapeHtml(label)}:</td><td><code>${escapeHtml(value)}</code></td></tr>`).join('')}</table>`
      : '',
    layout.action
      ? `<p><a href="${escapeHtml(layout.action.url)}" style="background:#1565c0;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(layout.action.label)}</a></p>` +
        `<p style="font-size:12px;color:#666">Or open this address: ${escapeHtml(layout.action.url)}</p>`
      : '',
    ...layout.footer.map(p),
    `<p style="color:#666">— ${PRODUCT}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: layout.subject, text, html };
}

function greet(firstName: string): string {
  return firstName ? `Hello ${firstName},` : 'Hello,';
}

export function activationMail(input: {
  firstName: string;
  companyName: string;
  companyHostname: string;
  email: string;
  temporaryPassword: string;
  link: string;
  validDays: number;
}): MailContent {
  return compose({
    subject: `Your ${PRODUCT} account for ${input.companyName}`,
    greeting: greet(input.firstName),
    lines: [
      `An account has been created for you in ${PRODUCT} for ${input.companyName}.`,
      'To activate it, open the link below and choose your own password. You will be asked for this temporary password:',
    ],
    facts: [
      ['Temporary password', input.temporaryPassword],
      ['Email', input.email],
      ['Company host name', input.companyHostname],
    ],
    action: { label: 'Activate your account', url: input.link },
    footer: [`The link is valid for ${input.validDays} days. If you did not expect this mail, you can ignore it.`],
  });
}

export function passwordResetMail(input: { firstName: string; companyName: string; link: string; validMinutes: number }): MailContent {
  return compose({
    subject: `Reset your ${PRODUCT} password`,
    greeting: greet(input.firstName),
    lines: [`Someone asked to reset the password of your ${PRODUCT} account for ${input.companyName}.`],
    action: { label: 'Choose a new password', url: input.link },
    footer: [
      `The link is valid for ${input.validMinutes} minutes and works once.`,
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ],
  });
}

export function passwordChangedMail(input: { firstName: string; companyName: string; changedAt: Date }): MailContent {
  return compose({
    subject: `Your ${PRODUCT} password was changed`,
    greeting: greet(input.firstName),
    lines: [
      `The password of your ${PRODUCT} account for ${input.companyName} was changed on ${input.changedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC.`,
      'Every signed-in session of the account has been ended.',
    ],
    footer: ['If you did not do this, reset your password at once and tell your administrator.'],
  });
}
