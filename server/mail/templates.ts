import os from 'node:os';
import type { FastifyRequest } from 'fastify';
import { LOCALES, type Locale } from '../../common/locales';
import type { Config } from '../config';

/** One mail in one language: plain text for every client, and a simple HTML twin. */
export interface MailText {
  subject: string;
  text: string;
  html: string;
}

/**
 * The mails the account flows send, in English, with the same mail in every other language the
 * product speaks: the mailer sends each recipient the one of the language they chose.
 */
export interface MailContent extends MailText {
  translations?: Partial<Record<Locale, MailText>>;
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

/** The words every mail shares, per language. */
const FRAME: Record<Locale, { hello: (name: string) => string; orOpen: string }> = {
  en: { hello: (name) => (name ? `Hello ${name},` : 'Hello,'), orOpen: 'Or open this address:' },
  fr: { hello: (name) => (name ? `Bonjour ${name},` : 'Bonjour,'), orOpen: 'Ou ouvrez cette adresse :' },
};

function compose(layout: Layout, locale: Locale): MailText {
  const facts = layout.facts ?? [];
  const colon = locale === 'fr' ? ' :' : ':';
  const text = [
    layout.greeting,
    '',
    ...layout.lines.flatMap((line) => [line, '']),
    ...(facts.length ? [...facts.map(([label, value]) => `${label}${colon} ${value}`), ''] : []),
    ...(layout.action ? [`${layout.action.label}${colon} ${layout.action.url}`, ''] : []),
    ...layout.footer.flatMap((line) => [line, '']),
    `— ${PRODUCT}`,
  ].join('\n');

  const p = (line: string) => `<p>${escapeHtml(line)}</p>`;
  const html = [
    `<!doctype html><html lang="${locale}"><body style="font-family:Arial,Helvetica,sans-serif;color:#222;line-height:1.5">`,
    p(layout.greeting),
    ...layout.lines.map(p),
    facts.length
      ? `<table>${facts.map(([label, value]) => `<tr><td>${escapeHtml(label)}${colon}</td><td><code>${escapeHtml(value)}</code></td></tr>`).join('')}</table>`
      : '',
    layout.action
      ? `<p><a href="${escapeHtml(layout.action.url)}" style="background:#1565c0;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(layout.action.label)}</a></p>` +
        `<p style="font-size:12px;color:#666">${escapeHtml(FRAME[locale].orOpen)} ${escapeHtml(layout.action.url)}</p>`
      : '',
    ...layout.footer.map(p),
    `<p style="color:#666">— ${PRODUCT}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: layout.subject, text, html };
}

/** A mail written once per language: English first, the others as its translations. */
function inEveryLanguage(layoutOf: (locale: Locale) => Layout): MailContent {
  const [english, ...others] = LOCALES.map((locale) => [locale, compose(layoutOf(locale), locale)] as const);
  return { ...english[1], translations: Object.fromEntries(others) };
}

/** The mail of a language, from a mail and its translations: English when it has none in that language. */
export function mailIn(mail: MailText & { translations?: Partial<Record<Locale, MailText>> }, locale: Locale): MailText {
  const { translations, ...english } = mail;
  return translations?.[locale] ?? english;
}

/** A moment as the mails write it: "2026-11-27 14:05:09 UTC". */
const utcText = (moment: Date) => `${moment.toISOString().replace('T', ' ').slice(0, 19)} UTC`;

export function activationMail(input: {
  firstName: string;
  companyName: string;
  companyHostname: string;
  email: string;
  temporaryPassword: string;
  link: string;
  validDays: number;
}): MailContent {
  return inEveryLanguage((locale) =>
    locale === 'fr'
      ? {
          subject: `Votre compte ${PRODUCT} pour ${input.companyName}`,
          greeting: FRAME.fr.hello(input.firstName),
          lines: [
            `Un compte a été créé pour vous dans ${PRODUCT} pour ${input.companyName}.`,
            'Pour l’activer, ouvrez le lien ci-dessous et choisissez votre propre mot de passe. Ce mot de passe temporaire vous sera demandé :',
          ],
          facts: [
            ['Mot de passe temporaire', input.temporaryPassword],
            ['E-mail', input.email],
            ['Nom d’hôte de l’entreprise', input.companyHostname],
          ],
          action: { label: 'Activer votre compte', url: input.link },
          footer: [`Le lien est valable ${input.validDays} jours. Si vous n’attendiez pas cet e-mail, vous pouvez l’ignorer.`],
        }
      : {
          subject: `Your ${PRODUCT} account for ${input.companyName}`,
          greeting: FRAME.en.hello(input.firstName),
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
        },
  );
}

export function passwordResetMail(input: { firstName: string; companyName: string; link: string; validMinutes: number }): MailContent {
  return inEveryLanguage((locale) =>
    locale === 'fr'
      ? {
          subject: `Réinitialisez votre mot de passe ${PRODUCT}`,
          greeting: FRAME.fr.hello(input.firstName),
          lines: [`Quelqu’un a demandé à réinitialiser le mot de passe de votre compte ${PRODUCT} pour ${input.companyName}.`],
          action: { label: 'Choisir un nouveau mot de passe', url: input.link },
          footer: [
            `Le lien est valable ${input.validMinutes} minutes et ne sert qu’une fois.`,
            'Si vous n’avez rien demandé, ignorez cet e-mail : votre mot de passe reste le même.',
          ],
        }
      : {
          subject: `Reset your ${PRODUCT} password`,
          greeting: FRAME.en.hello(input.firstName),
          lines: [`Someone asked to reset the password of your ${PRODUCT} account for ${input.companyName}.`],
          action: { label: 'Choose a new password', url: input.link },
          footer: [
            `The link is valid for ${input.validMinutes} minutes and works once.`,
            'If you did not ask for this, ignore this mail: your password stays as it is.',
          ],
        },
  );
}

export function passwordChangedMail(input: { firstName: string; companyName: string; changedAt: Date }): MailContent {
  return inEveryLanguage((locale) =>
    locale === 'fr'
      ? {
          subject: `Le mot de passe de votre compte ${PRODUCT} a été changé`,
          greeting: FRAME.fr.hello(input.firstName),
          lines: [
            `Le mot de passe de votre compte ${PRODUCT} pour ${input.companyName} a été changé le ${utcText(input.changedAt)}.`,
            'Toutes les sessions ouvertes du compte ont été fermées.',
          ],
          footer: ['Si ce n’est pas vous, réinitialisez votre mot de passe sans attendre et prévenez votre administrateur.'],
        }
      : {
          subject: `Your ${PRODUCT} password was changed`,
          greeting: FRAME.en.hello(input.firstName),
          lines: [
            `The password of your ${PRODUCT} account for ${input.companyName} was changed on ${utcText(input.changedAt)}.`,
            'Every signed-in session of the account has been ended.',
          ],
          footer: ['If you did not do this, reset your password at once and tell your administrator.'],
        },
  );
}
