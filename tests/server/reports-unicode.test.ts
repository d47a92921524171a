import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from './harness';
import { call, signInAdmin } from './helpers';
import { companies, dataTables, jobRuns, qualityResults, qualityRuns, workflows } from '../../server/db/schema';
import { summarise } from '../../server/reports/document';
import { reportFile } from '../../server/reports/files';

/**
 * A report's PDF names a company, its workflows and its tables in any script: Polish, Cyrillic,
 * Greek, Arabic, Chinese, Japanese and Korean names are read back from the PDF as they were
 * written, never as "?". The text is read with pdf.js, as a reader or a search would.
 */

const COMPANY = 'Łódź Zażółć Analytics';
const WORKFLOWS = ['Юлия', 'Ελένη', 'مريم علي', '山田太郎', '김민준'];
const TABLES = ['王芳', 'Zażółć gęślą jaźń'];

/** The PDF's text, a line per line of the page (as pdf.js reads it), and its title. */
async function readPdf(bytes: Buffer): Promise<{ text: string; title: string }> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const content = await (await pdf.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? `${item.str}${item.hasEOL ? '\n' : ''}` : '')).join(''));
  }
  const { info } = await pdf.getMetadata();
  await pdf.destroy();
  return { text: pages.join('\n'), title: (info as { Title?: string }).Title ?? '' };
}

const lines = (text: string) => text.split('\n').map((line) => line.trim());
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A table row as pdf.js reads it: its cells in order, with at most a space between two. */
const hasRow = (text: string, ...cells: string[]) => {
  const row = new RegExp(`^${cells.map(escape).join(' ?')}$`);
  return lines(text).some((line) => row.test(line));
};

describe('reports in any script', () => {
  let server: TestServer;
  let adminToken: string;

  beforeAll(async () => {
    server = await createTestServer();
    adminToken = (await signInAdmin(server)).accessToken!;
    const companyId = server.company.companyId;
    await server.db.update(companies).set({ name: COMPANY }).where(eq(companies.id, companyId));
    const lastHour = new Date(Date.now() - 3_600_000);
    const named = await server.db
      .insert(workflows)
      .values(WORKFLOWS.map((name) => ({ companyId, name, pairId: crypto.randomUUID() })))
      .returning();
    // One more failure for each workflow than the next, so that they are listed in this order.
    await server.db.insert(jobRuns).values(
      named.flatMap((workflow, index) =>
        Array.from({ length: named.length - index }, () => ({
          companyId,
          workflowId: workflow.id,
          status: 'failed',
          trigger: 'manual',
          queuedAt: lastHour,
        })),
      ),
    );
    const tables = await server.db
      .insert(dataTables)
      .values(TABLES.map((name) => ({ companyId, connectionId: crypto.randomUUID(), endpoint: 'public.people', name })))
      .returning();
    for (const table of tables) {
      const [run] = await server.db
        .insert(qualityRuns)
        .values({ companyId, tableId: table.id, status: 'failed', startedAt: lastHour })
        .returning();
      await server.db.insert(qualityResults).values({
        companyId,
        runId: run.id,
        ruleId: crypto.randomUUID(),
        tableId: table.id,
        ruleName: 'Имя задано',
        functionName: 'not_null',
        columnName: '名前',
        severity: 'fail',
        status: 'failed',
        startedAt: lastHour,
        endedAt: lastHour,
      });
    }
  });
  afterAll(async () => server?.close());

  it('writes every name in its own script, read back from the PDF as it was written', async () => {
    const res = await call(server, 'POST', '/reports', { token: adminToken, body: { format: 'pdf' } });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json().data;
    const download = await call(server, 'GET', `/reports/${made.id}/attachments/${made.attachments[0].id}`, { token: adminToken });
    expect(download.statusCode).toBe(200);
    const { text, title } = await readPdf(download.rawPayload);

    const shown = lines(text);
    expect(shown).toContain(COMPANY);
    // Each failing workflow on its own row, with its failures, in order.
    WORKFLOWS.forEach((name, index) => expect(hasRow(text, name, String(WORKFLOWS.length - index)), `${name} in\n${text}`).toBe(true));
    for (const name of TABLES) expect(hasRow(text, name, 'Имя задано (名前)', '1'), `${name} in\n${text}`).toBe(true);
    expect(text).not.toContain('?');
    expect(text).not.toContain('\uFFFD');
    expect(title).toContain(COMPANY);
  });
});

describe('the fonts a report embeds', () => {
  const zero = { queued: 0, running: 0, succeeded: 0, failed: 0, canceled: 0, timed_out: 0 };
  const none = { passed: 0, warned: 0, failed: 0, error: 0 };
  const summary = (company: string, workflowNames: string[]) =>
    summarise({
      kind: 'weekly',
      company: { name: company, hostname: 'acme' },
      timezone: 'UTC',
      period: { start: new Date('2025-11-03T00:00:00Z'), end: new Date('2025-11-10T00:00:00Z') },
      madeAt: new Date('2025-11-10T06:00:00Z'),
      figures: {
        runs: {
          total: workflowNames.length,
          byStatus: { ...zero, failed: workflowNames.length },
          failed: workflowNames.length,
          rowsCopied: 0,
          failingWorkflows: workflowNames.map((name, index) => ({ workflowId: String(index), name, failures: 1 })),
        },
        quality: { runs: 0, runsByStatus: none, checks: 0, checksByResult: none, failedChecks: [] },
        security: { signIns: 0, failedSignIns: 0, blocked: 0, failedCodes: 0, newSessions: 0, impersonations: 0, addresses: 0 },
        usage: {
          activeUsers: 0,
          newUsers: 0,
          connections: { total: 0, added: 0 },
          tables: { total: 0, added: 0 },
          workflows: { total: 0, added: 0 },
          changes: 0,
          apiKeyChanges: 0,
          apiKeyRuns: 0,
        },
      },
    });
  const embedded = (bytes: Buffer) => [...bytes.toString('latin1').matchAll(/\/BaseFont \/[A-Z]{6}\+([\w-]+)/g)].map((m) => m[1]);

  it('embeds no font for a report Helvetica can write, and only the fonts a report needs', async () => {
    const latin = await reportFile(summary('Acme', ['Nightly copy', 'Café sync']), 'pdf');
    expect(embedded(latin.content)).toEqual([]);

    const greek = await reportFile(summary('Acme', ['Ελένη']), 'pdf');
    expect(new Set(embedded(greek.content))).toEqual(new Set(['NotoSans-Regular']));
    expect((await readPdf(greek.content)).text).toContain('Ελένη');
  });

  it('cuts a name too long for its column with an ellipsis, in the name’s own script', async () => {
    const long = '山田太郎'.repeat(40);
    const { text } = await readPdf((await reportFile(summary('Acme', [long]), 'pdf')).content);
    const row = lines(text).find((line) => line.startsWith('山田太郎'));
    expect(row).toMatch(/^(山田太郎)+[山田太郎]{0,3}… ?1$/);
    expect(row!.length).toBeLessThan(long.length);
  });
});
