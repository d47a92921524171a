import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies } from '../../server/db/schema';
import { recipientLocales } from '../../server/mail/recipients';
import { reportCsv } from '../../server/reports/files';
import type { ReportSummary } from '../../server/reports/document';
import { createTestServer, type TestServer } from './harness';
import { call, createActiveUser, freshIp, mailsTo, readLastMail, signInAdmin, signInFully } from './helpers';

/** Mails and reports reach each recipient in the language they chose in the console; English otherwise. */
let server: TestServer;
let adminToken: string;
let french: { id: string; email: string; password: string; token: string };
let english: { id: string; email: string; password: string };

async function chooseLanguage(token: string, value: unknown) {
  return call(server, 'PUT', '/user/preferences/locale', { token, body: { value } });
}

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token;
  const created = await createActiveUser(server, adminToken, { email: 'amelie@acme.test', firstName: 'Amélie' });
  french = { ...created, token: (await signInFully(server, { email: created.email, password: created.password })).token };
  expect((await chooseLanguage(french.token, 'fr')).statusCode).toBe(200);
  english = await createActiveUser(server, adminToken, { email: 'edward@acme.test', firstName: 'Edward' });
  await server.db.update(companies).set({ timezone: 'Europe/Paris' }).where(eq(companies.id, server.company.companyId));
});
afterAll(async () => {
  await server?.close();
});

function forgot(email: string) {
  return call(server, 'POST', '/user/password/forgot', { body: { email, companyHostname: server.company.hostname }, ip: freshIp() });
}

describe('account mails', () => {
  it('reach a user who chose French in French, with the same link', async () => {
    expect((await forgot(french.email)).statusCode).toBe(200);
    const mail = await readLastMail(server.db, french.email);
    expect(mail.kind).toBe('password_reset');
    expect(mail.subject).toBe('Réinitialisez votre mot de passe DataOps Console');
    expect(mail.text).toContain('Bonjour Amélie,');
    expect(mail.text).toMatch(/Choisir un nouveau mot de passe : https?:\/\/\S+\/auth\/reset-password\?token=[A-Za-z0-9_-]+/);
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.text).not.toContain('Hello');
  });

  it('reach everyone else in English', async () => {
    expect((await forgot(english.email)).statusCode).toBe(200);
    const mail = await readLastMail(server.db, english.email);
    expect(mail.subject).toBe('Reset your DataOps Console password');
    expect(mail.text).toContain('Hello Edward,');
    expect(mail.html).toContain('<html lang="en">');
  });

  it('follow a change of language at once', async () => {
    const changed = await call(server, 'POST', '/user/password', {
      token: french.token,
      body: { oldPassword: french.password, newPassword: 'Changed-pass-42' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const mail = await readLastMail(server.db, french.email);
    expect(mail.kind).toBe('password_changed');
    expect(mail.subject).toBe('Le mot de passe de votre compte DataOps Console a été changé');
    expect(mail.text).toContain('Toutes les sessions ouvertes du compte ont été fermées.');
    // Signed out by the change: sign in again with the new password, and go back to English.
    french.password = 'Changed-pass-42';
    french.token = (await signInFully(server, { email: french.email, password: french.password })).token;
    expect((await chooseLanguage(french.token, 'en')).statusCode).toBe(200);
    await forgot(french.email);
    expect((await readLastMail(server.db, french.email)).subject).toBe('Reset your DataOps Console password');
    expect((await chooseLanguage(french.token, 'fr')).statusCode).toBe(200);
  });

  it('take a language the product does not speak, or none, as English', async () => {
    const other = await createActiveUser(server, adminToken, { email: 'dora@acme.test' });
    const token = (await signInFully(server, { email: other.email, password: other.password })).token;
    expect((await chooseLanguage(token, 'de')).statusCode).toBe(200);
    const locales = await recipientLocales(server.db, server.company.companyId, [other.email, 'AMELIE@acme.test', 'nobody@acme.test']);
    expect(Object.fromEntries(locales)).toEqual({ [other.email]: 'en', 'AMELIE@acme.test': 'fr', 'nobody@acme.test': 'en' });
  });
});

describe('reports', () => {
  let summary: ReportSummary;

  it('are mailed to each recipient in their language, the file written in it too', async () => {
    const res = await call(server, 'POST', '/reports', {
      token: adminToken,
      body: { periodStart: '2025-11-03', periodEnd: '2025-11-09', format: 'csv', recipients: [french.id, english.id] },
    });
    expect(res.statusCode, res.body).toBe(201);
    summary = res.json().data.summary;

    const [inFrench] = (await mailsTo(server.db, french.email)).filter((mail) => mail.kind === 'report');
    expect(inFrench.subject).toBe('Rapport de Acme : 3 nov. 2025 – 9 nov. 2025');
    expect(inFrench.text).toContain('Heures en Europe/Paris.');
    expect(inFrench.text).toMatch(/Exécutions : +0/);
    expect(inFrench.text).toContain('Tous les rapports de Acme : ');
    expect(inFrench.attachments).toHaveLength(1);
    expect(inFrench.attachments[0].fileName).toBe('report-acme-2025-11-03_2025-11-09.csv');

    const [inEnglish] = (await mailsTo(server.db, english.email)).filter((mail) => mail.kind === 'report');
    expect(inEnglish.subject).toBe('Report of Acme: 3 Nov 2025 – 9 Nov 2025');
    expect(inEnglish.text).toMatch(/Runs: +0/);
    // The French file is the French one: not the same bytes as the one everyone else gets.
    expect(inFrench.attachments[0].size).not.toBe(inEnglish.attachments[0].size);
  });

  it('write their CSV in French for a French reader', () => {
    const rows = reportCsv(summary, 'fr').toString('utf8');
    expect(rows).toContain('section,figure,detail,value\r\nRapport,Titre,,Rapport\r\n');
    expect(rows).toContain('Rapport,Période,,3 nov. 2025 – 9 nov. 2025\r\n');
    expect(rows).toContain('Sécurité,Connexions échouées,,0\r\n');
    expect(rows).toContain('Qualité des données,Contrôles : en échec,,0\r\n');
    expect(reportCsv(summary).toString('utf8')).toContain('Security,Failed sign-ins,,0\r\n');
  });
});
