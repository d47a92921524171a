import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { companies, companyLogos, systemAudits } from '../../server/db/schema';
import { call, createOtherCompany, signInAdmin, userWithPolicies } from './helpers';

/**
 * The company's own profile and logo: GET and PUT /company (JSON or multipart with the file
 * `logo`), GET /company/logo for the signed-in caller or, without a token, by host name.
 */

const DENIED = 'Resource Access not provided';
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

let server: TestServer;
let adminToken: string;
let companyId: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let reader: Awaited<ReturnType<typeof userWithPolicies>>;
let editor: Awaited<ReturnType<typeof userWithPolicies>>;
let outsider: Awaited<ReturnType<typeof userWithPolicies>>;

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  companyId = server.company.companyId;
  other = await createOtherCompany(server);
  reader = await userWithPolicies(server, adminToken, 'company.reader@acme.test', [{ resource: 'company', actions: ['read'] }]);
  editor = await userWithPolicies(server, adminToken, 'company.editor@acme.test', [{ resource: 'company', actions: ['read', 'update'] }]);
  outsider = await userWithPolicies(server, adminToken, 'no.company@acme.test', [{ resource: 'users', actions: ['read'] }]);
});

afterAll(async () => {
  await server?.close();
});

type Part = { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };

/** A multipart/form-data body, as a browser's FormData sends it. */
function form(parts: Part[]): { body: Buffer; headers: Record<string, string> } {
  const boundary = `----form${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const png = (size = 200) =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    Buffer.from('IHDR'),
    crypto.randomBytes(size),
  ]);
const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(200)]);
const gif = () => Buffer.concat([Buffer.from('GIF89a'), crypto.randomBytes(100)]);
const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

const getProfile = (token: string) => call(server, 'GET', '/company', { token });
const putJson = (token: string, body: unknown) => call(server, 'PUT', '/company', { token, body });
const putForm = (token: string, parts: Part[]) => {
  const { body, headers } = form(parts);
  return call(server, 'PUT', '/company', { token, body, headers });
};
const logoPart = (data: Buffer, filename = 'logo.png', type = 'image/png'): Part => ({ name: 'logo', filename, type, data });
const uploadLogo = (data: Buffer, filename?: string, type?: string, token = adminToken) => putForm(token, [logoPart(data, filename, type)]);
const getLogo = (query = '', options: { token?: string; headers?: Record<string, string> } = {}) =>
  call(server, 'GET', `/company/logo${query}`, options);

async function storedLogo(id = companyId) {
  const [row] = await server.db.select().from(companyLogos).where(eq(companyLogos.companyId, id));
  return row ?? null;
}

async function companyAudits() {
  return server.db
    .select()
    .from(systemAudits)
    .where(and(eq(systemAudits.companyId, companyId), eq(systemAudits.model, 'company'), eq(systemAudits.operation, 'update_profile')))
    .orderBy(systemAudits.createdAt);
}

/** The company row, its logo and the audit count: what a refused request must leave as it was. */
async function state() {
  const [company] = await server.db.select().from(companies).where(eq(companies.id, companyId));
  const [{ n }] = await server.db.select({ n: count() }).from(systemAudits).where(eq(systemAudits.companyId, companyId));
  const logo = await storedLogo();
  return { company, logo: logo && { sha256: logo.sha256, contentType: logo.contentType }, audits: n };
}

async function expectRefused(
  res: { statusCode: number; json(): { message: string } },
  status: number,
  message: string | RegExp,
  before: Awaited<ReturnType<typeof state>>,
) {
  expect(res.statusCode).toBe(status);
  if (typeof message === 'string') expect(res.json().message).toBe(message);
  else expect(res.json().message).toMatch(message);
  expect(await state()).toEqual(before);
}

describe('GET /company', () => {
  it("answers the caller's company profile, read-only host name included", async () => {
    const res = await getProfile(adminToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Company profile');
    const data = res.json().data;
    expect(data).toEqual({
      id: companyId,
      name: 'Acme',
      hostname: 'acme',
      contactEmail: null,
      phone: null,
      website: null,
      addressLine: null,
      city: null,
      postalCode: null,
      country: null,
      timezone: 'UTC',
      hasLogo: false,
      logoUrl: null,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  it('needs company/read: 403 for a user whose role lacks it; a reader may read but not edit', async () => {
    const denied = await getProfile(outsider.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ message: DENIED });

    expect((await getProfile(reader.token)).json().data.name).toBe('Acme');
    const before = await state();
    await expectRefused(await putJson(reader.token, { name: 'Taken over' }), 403, DENIED, before);
    await expectRefused(await putJson(outsider.token, { name: 'Taken over' }), 403, DENIED, before);
    await expectRefused(await uploadLogo(png(), 'x.png', 'image/png', reader.token), 403, DENIED, before);
    expect((await getProfile('not-a-token')).statusCode).toBe(401);
  });
});

describe('PUT /company (JSON)', () => {
  it('saves the fields sent, normalised, answers the saved profile and audits what changed', async () => {
    const auditsBefore = (await companyAudits()).length;
    const res = await putJson(editor.token, {
      name: '  Acme Industries ',
      contactEmail: 'Hello@Acme.TEST',
      phone: '+44 20 7946 0958',
      website: 'https://acme.example/about',
      addressLine: '1 Long Lane',
      city: 'London',
      postalCode: 'EC1A 9HF',
      country: 'gb',
      timezone: 'europe/london',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('The company profile has been saved');
    expect(res.json().data).toMatchObject({
      name: 'Acme Industries',
      hostname: 'acme',
      contactEmail: 'hello@acme.test',
      website: 'https://acme.example/about',
      postalCode: 'EC1A 9HF',
      country: 'GB',
      timezone: 'Europe/London',
      hasLogo: false,
    });
    const [row] = await server.db.select().from(companies).where(eq(companies.id, companyId));
    expect(row).toMatchObject({ name: 'Acme Industries', country: 'GB', timezone: 'Europe/London', city: 'London', hostname: 'acme' });

    const audits = await companyAudits();
    expect(audits).toHaveLength(auditsBefore + 1);
    expect(audits.at(-1)).toMatchObject({ operation: 'update_profile', recordId: companyId, userId: editor.id });
    expect(audits.at(-1)!.changes).toEqual({
      before: {
        name: 'Acme',
        contactEmail: null,
        phone: null,
        website: null,
        addressLine: null,
        city: null,
        postalCode: null,
        country: null,
        timezone: 'UTC',
      },
      after: {
        name: 'Acme Industries',
        contactEmail: 'hello@acme.test',
        phone: '+44 20 7946 0958',
        website: 'https://acme.example/about',
        addressLine: '1 Long Lane',
        city: 'London',
        postalCode: 'EC1A 9HF',
        country: 'GB',
        timezone: 'Europe/London',
      },
    });
  });

  it('changes only what is sent; an empty value clears a field; the same values change nothing', async () => {
    const res = await putJson(adminToken, { city: '', phone: null });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ city: null, phone: null, name: 'Acme Industries', country: 'GB' });
    expect((await companyAudits()).at(-1)!.changes).toEqual({
      before: { city: 'London', phone: '+44 20 7946 0958' },
      after: { city: null, phone: null },
    });

    const before = await state();
    const same = await putJson(adminToken, { name: 'Acme Industries', country: 'GB', city: null });
    expect(same.statusCode).toBe(200);
    expect(same.json().message).toBe('Nothing to change');
    expect(await state()).toEqual(before);
  });

  it('names every bad field, refuses the host name and unknown fields, and changes nothing', async () => {
    const before = await state();
    const res = await putJson(adminToken, {
      name: '',
      contactEmail: 'not-an-email',
      website: 'javascript:alert(1)',
      country: 'XX',
      timezone: '+01:00',
    });
    expect(res.statusCode).toBe(400);
    const message = res.json().message as string;
    expect(message).toContain('name: is required');
    expect(message).toContain('contactEmail: must be a valid email address');
    expect(message).toContain('website: must be a web address starting with https:// or http://');
    expect(message).toContain('country: must be a two-letter ISO 3166 country code');
    expect(message).toContain('timezone: must be an IANA time zone');
    expect(await state()).toEqual(before);

    await expectRefused(await putJson(adminToken, { timezone: 'Mars/Olympus_Mons' }), 400, /^timezone: must be an IANA time zone/, before);
    await expectRefused(
      await putJson(adminToken, { postalCode: '<b>1</b>' }),
      400,
      'postalCode: may only contain letters, digits, spaces and hyphens',
      before,
    );
    await expectRefused(
      await putJson(adminToken, { city: 'Line\nbreak' }),
      400,
      'city: may not contain line breaks or control characters',
      before,
    );
    await expectRefused(await putJson(adminToken, { name: 'x'.repeat(201) }), 400, 'name: must be at most 200 characters', before);
    await expectRefused(
      await putJson(adminToken, { hostname: 'stolen' }),
      400,
      'hostname: cannot be changed: it is the name users type to sign in',
      before,
    );
    await expectRefused(
      await putJson(adminToken, { name: 'Fine', colour: 'red' }),
      400,
      'colour: is not a field of the company profile',
      before,
    );
    await expectRefused(await putJson(adminToken, ['name']), 400, 'body: must be an object of company profile fields', before);
    await expectRefused(
      await putJson(adminToken, { logo: 'iVBORw0KGgo=' }),
      400,
      'logo: send the logo as a file of a multipart/form-data body (or removeLogo: true to remove it)',
      before,
    );
  });

  it("another company's admin sees and edits only their own company", async () => {
    const mine = await getProfile(other.adminToken);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data).toMatchObject({ id: other.companyId, name: 'Globex', hostname: 'globex' });
    expect(mine.body).not.toContain('Acme');

    const before = await state();
    const res = await putJson(other.adminToken, { name: 'Globex Corporation' });
    expect(res.json().data).toMatchObject({ id: other.companyId, name: 'Globex Corporation' });
    expect(await state()).toEqual(before);
    expect((await getProfile(adminToken)).json().data.name).toBe('Acme Industries');
    const [globexAudit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.companyId, other.companyId), eq(systemAudits.operation, 'update_profile')));
    expect(globexAudit).toMatchObject({
      recordId: other.companyId,
      changes: { before: { name: 'Globex' }, after: { name: 'Globex Corporation' } },
    });
  });
});

describe('PUT /company with a logo (multipart)', () => {
  it('stores a PNG with the fields of the same form, and audits the logo by its digest', async () => {
    const bytes = png();
    const res = await putForm(adminToken, [{ name: 'city', value: 'Manchester' }, logoPart(bytes)]);
    expect(res.statusCode, res.body).toBe(200);
    const digest = sha256(bytes);
    expect(res.json().data).toMatchObject({ city: 'Manchester', hasLogo: true, logoUrl: `/api/v1/company/logo?v=${digest.slice(0, 16)}` });
    const stored = await storedLogo();
    expect(stored).toMatchObject({ contentType: 'image/png', sha256: digest, updatedBy: server.company.adminUserId });
    expect(Buffer.from(stored!.bytes).equals(bytes)).toBe(true);

    const audit = (await companyAudits()).at(-1)!;
    expect(audit.changes).toEqual({ before: { city: null, logo: null }, after: { city: 'Manchester', logo: digest } });
    // The audit names the file, never holds it.
    expect(JSON.stringify(audit.changes)).not.toContain(bytes.toString('base64').slice(0, 40));
  });

  it('reads the type from the bytes: a JPEG sent as logo.png is stored as a JPEG', async () => {
    const bytes = jpeg();
    const res = await uploadLogo(bytes, 'logo.png', 'image/png');
    expect(res.statusCode, res.body).toBe(200);
    expect(await storedLogo()).toMatchObject({ contentType: 'image/jpeg', sha256: sha256(bytes) });
    expect((await companyAudits()).at(-1)!.changes).toMatchObject({ after: { logo: sha256(bytes) } });
  });

  it('refuses a file of another kind whatever its name or declared type, and a file too large, changing nothing', async () => {
    const before = await state();
    const wrongType = 'logo: must be a PNG, JPEG or SVG image';
    await expectRefused(
      await putForm(adminToken, [{ name: 'city', value: 'Leeds' }, logoPart(gif(), 'logo.png', 'image/png')]),
      415,
      wrongType,
      before,
    );
    await expectRefused(await uploadLogo(Buffer.from('just some words, not a picture'), 'logo.png', 'image/png'), 415, wrongType, before);
    // The PNG signature alone is not a PNG.
    await expectRefused(await uploadLogo(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])), 415, wrongType, before);
    await expectRefused(await uploadLogo(png(512 * 1024)), 413, 'logo: must be at most 512 KB', before);
    await expectRefused(await uploadLogo(Buffer.alloc(0)), 400, 'logo: the file is empty', before);
    await expectRefused(
      await putForm(adminToken, [{ name: 'removeLogo', value: 'true' }, logoPart(png())]),
      400,
      'removeLogo: cannot be true while a new logo is sent',
      before,
    );
    await expectRefused(
      await putForm(adminToken, [{ name: 'picture', filename: 'a.png', type: 'image/png', data: png() }]),
      400,
      'picture: only one file, named "logo", may be sent',
      before,
    );
    // A bad field refuses the logo sent with it.
    await expectRefused(await putForm(adminToken, [{ name: 'country', value: 'Narnia' }, logoPart(png())]), 400, /^country: /, before);
  });

  it('accepts a file of exactly 512 KB', async () => {
    const bytes = png(512 * 1024 - 16);
    expect(bytes.length).toBe(512 * 1024);
    const res = await uploadLogo(bytes);
    expect(res.statusCode, res.body).toBe(200);
    expect((await storedLogo())!.sha256).toBe(sha256(bytes));
  });

  it('removeLogo=true removes it (audited); removing none changes nothing', async () => {
    const current = (await storedLogo())!.sha256;
    const res = await putForm(adminToken, [{ name: 'removeLogo', value: 'true' }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ hasLogo: false, logoUrl: null });
    expect(await storedLogo()).toBeNull();
    expect((await companyAudits()).at(-1)!.changes).toEqual({ before: { logo: current }, after: { logo: null } });

    const before = await state();
    const again = await putJson(adminToken, { removeLogo: true });
    expect(again.json().message).toBe('Nothing to change');
    expect(await state()).toEqual(before);
  });
});

describe('SVG logos', () => {
  const upload = async (svg: string) => uploadLogo(Buffer.from(svg), 'logo.svg', 'image/svg+xml');
  const storedSvg = async () => {
    const row = await storedLogo();
    expect(row?.contentType).toBe('image/svg+xml');
    return Buffer.from(row!.bytes).toString('utf8');
  };

  it('keeps the drawing: shapes, gradients, internal references, text, and a style that stays inside', async () => {
    const svg = `<?xml version="1.0" encoding="UTF-8"?>
<!-- made by hand -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 120 40" width="120" height="40">
  <title>Acme &amp; Sons</title>
  <defs>
    <linearGradient id="sky" x1="0" x2="1"><stop offset="0" stop-color="#0af"/><stop offset="1" stop-color="#05a"/></linearGradient>
    <clipPath id="round"><circle cx="20" cy="20" r="18"/></clipPath>
    <symbol id="dot"><circle cx="2" cy="2" r="2"/></symbol>
  </defs>
  <style>.brand { font-family: sans-serif; fill: url(#sky) }</style>
  <g clip-path="url(#round)"><rect width="40" height="40" fill="url(#sky)"/></g>
  <use xlink:href="#dot" x="50" y="5"/>
  <path d="M50 30 L60 10 L70 30 Z" style="fill:#f80;stroke:#333"/>
  <text x="80" y="28" class="brand">A&#169;me</text>
</svg>`;
    const res = await upload(svg);
    expect(res.statusCode, res.body).toBe(200);
    const stored = await storedSvg();
    expect(stored).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" xmlns:xlink="http:\/\/www\.w3\.org\/1999\/xlink" viewBox="0 0 120 40"/,
    );
    for (const kept of [
      '<linearGradient id="sky"',
      '<stop offset="0" stop-color="#0af"/>',
      '<clipPath id="round">',
      'fill="url(#sky)"',
      'clip-path="url(#round)"',
      '<use xlink:href="#dot" x="50" y="5"/>',
      'style="fill:#f80;stroke:#333"',
      '<title>Acme &amp; Sons</title>',
      '>A©me</text>',
      '.brand { font-family: sans-serif; fill: url(#sky) }',
    ]) {
      expect(stored).toContain(kept);
    }
    expect(stored).not.toContain('<?xml');
    expect(stored).not.toContain('made by hand');
    expect((await storedLogo())!.sha256).toBe(sha256(Buffer.from(stored)));
  });

  it.each([
    [
      'a <script> element',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script><rect width="5" height="5"/></svg>',
      ['<script', 'alert('],
    ],
    [
      'a script hidden in CDATA',
      '<svg xmlns="http://www.w3.org/2000/svg"><script><![CDATA[alert(1)]]></script><rect width="5" height="5"/></svg>',
      ['script', 'alert('],
    ],
    [
      'onload= and other event handlers',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="5" height="5" onclick="alert(2)" ONMOUSEOVER="alert(3)"/></svg>',
      ['onload', 'onclick', 'ONMOUSEOVER', 'alert('],
    ],
    [
      'a javascript: link',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><rect width="5" height="5"/></a><a href="&#106;avascript:alert(2)"><rect width="5" height="5"/></a></svg>',
      ['javascript', 'avascript', '<a', 'href'],
    ],
    [
      'a foreignObject',
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example"/></div></foreignObject><rect width="5" height="5"/></svg>',
      ['foreignObject', 'iframe', 'evil.example'],
    ],
    [
      'an external <use href>',
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use href="http://evil.example/sprite.svg#a"/><use xlink:href="https://evil.example/x.svg#b"/><rect width="5" height="5"/></svg>',
      ['<use', 'evil.example'],
    ],
    [
      'external images, styles and url()s',
      '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/p.png"/><style>@import url(https://evil.example/a.css);</style><rect width="5" height="5" fill="url(https://evil.example/f.svg#g)" style="fill:u&#114;l(https://evil.example/s)"/><rect width="5" height="5" style="fill:exp/**/ression(alert(1))"/></svg>',
      ['<image', 'evil.example', '@import', 'expression', 'ression', '<style'],
    ],
    [
      'CSS that loads images without url()',
      '<svg xmlns="http://www.w3.org/2000/svg"><style type="text/css">rect { fill: red; background: image-set("https://evil.example/a.png" 1x) }</style><style type="text/javascript">rect { fill: blue }</style><rect width="5" height="5" style="background:-webkit-image-set(\'https://evil.example/b.png\' 1x)"/></svg>',
      ['image-set', 'evil.example', 'text/javascript'],
    ],
    [
      'animation that could set a link',
      '<svg xmlns="http://www.w3.org/2000/svg"><set attributeName="href" to="javascript:alert(1)"/><animate attributeName="href" values="javascript:alert(1)"/><rect width="5" height="5"/></svg>',
      ['<set', '<animate', 'javascript'],
    ],
  ])('cleans %s out and keeps the rest', async (_name, svg, gone) => {
    const res = await upload(svg);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.hasLogo).toBe(true);
    const stored = await storedSvg();
    for (const text of gone) expect(stored).not.toContain(text);
    expect(stored).toContain('<rect width="5" height="5"');
  });

  it.each([
    [
      'a DOCTYPE with an external entity',
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&xxe;</text></svg>',
      'logo: an SVG with a DOCTYPE or entity declarations is not accepted',
    ],
    [
      'entity expansion',
      '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>',
      'logo: an SVG with a DOCTYPE or entity declarations is not accepted',
    ],
    [
      'an undefined entity',
      '<svg xmlns="http://www.w3.org/2000/svg"><text>&nbsp;</text></svg>',
      'logo: the SVG uses an entity that is not defined: &nbsp;',
    ],
    [
      'XML that is not well-formed',
      '<svg xmlns="http://www.w3.org/2000/svg"><g></svg>',
      /^logo: the SVG is not well-formed XML \(line 1, column \d+: /,
    ],
    [
      'XML that is not an SVG',
      '<html><body onload="alert(1)"/></html>',
      'logo: the file is XML but not an SVG image (its root element must be <svg>)',
    ],
    [
      'markup in another encoding',
      Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x3e, 0xe9, 0x3c, 0x2f, 0x73, 0x76, 0x67, 0x3e]),
      'logo: an SVG must be UTF-8 text',
    ],
  ])('refuses %s with a 400 and keeps the logo it had', async (_name, svg, message) => {
    const before = await state();
    expect(before.logo?.contentType).toBe('image/svg+xml');
    const res = await uploadLogo(Buffer.isBuffer(svg) ? svg : Buffer.from(svg), 'logo.svg', 'image/svg+xml');
    await expectRefused(res, 400, message, before);
  });

  it('refuses a file nested to strain the parser, without falling over', async () => {
    const before = await state();
    const deep = `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(100)}${'</g>'.repeat(100)}</svg>`;
    await expectRefused(
      await upload(deep),
      400,
      /^logo: the SVG nests elements more than 64 deep|^logo: the SVG could not be read/,
      before,
    );
  });
});

describe('GET /company/logo', () => {
  let bytes: Buffer;
  let digest: string;

  beforeAll(async () => {
    bytes = png();
    digest = sha256(bytes);
    expect((await uploadLogo(bytes)).statusCode).toBe(200);
  });

  it("sends the signed-in caller's logo with its type, nosniff, an ETag, and no-cache without a version", async () => {
    const res = await getLogo('', { token: reader.token });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers.etag).toBe(`"${digest}"`);
    expect(res.headers['cache-control']).toBe('no-cache');
    // Not the SVG sandbox: the closed policy every non-page answer gets (server/http/security-headers.ts).
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    // Any signed-in user of the company may read it: it is on the sign-in page anyway.
    expect((await getLogo('', { token: outsider.token })).statusCode).toBe(200);
  });

  it('is immutable when the URL names the current version, and checked again when it names another', async () => {
    const logoUrl = (await getProfile(adminToken)).json().data.logoUrl as string;
    expect(logoUrl).toBe(`/api/v1/company/logo?v=${digest.slice(0, 16)}`);
    const current = await getLogo(logoUrl.slice('/api/v1/company/logo'.length), { token: adminToken });
    expect(current.statusCode).toBe(200);
    expect(current.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const stale = await getLogo('?v=0123456789abcdef', { token: adminToken });
    expect(stale.headers['cache-control']).toBe('no-cache');
    expect(stale.rawPayload.equals(bytes)).toBe(true);
  });

  it('answers 304 to an If-None-Match naming its ETag, and the bytes to any other', async () => {
    for (const ifNoneMatch of [`"${digest}"`, `W/"${digest}"`, `"other", "${digest}"`, '*']) {
      const res = await getLogo('?hostname=acme', { headers: { 'if-none-match': ifNoneMatch } });
      expect(res.statusCode, ifNoneMatch).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(`"${digest}"`);
    }
    const changed = await getLogo('?hostname=acme', { headers: { 'if-none-match': '"an-older-logo"' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.equals(bytes)).toBe(true);
  });

  it('is public by host name, so the sign-in page can show it', async () => {
    const res = await getLogo('?hostname=acme');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect((await getLogo('?hostname=ACME')).rawPayload.equals(bytes)).toBe(true);
    expect((await getLogo(`?hostname=acme&v=${digest.slice(0, 16)}`)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers the same 404 for an unknown host name, a malformed one and a company without a logo', async () => {
    const answers = await Promise.all(
      ['?hostname=nosuchcompany', '?hostname=globex', '?hostname=..%2F..', '?hostname='].map((query) => getLogo(query)),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'No logo' });
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    // Signed in to a company without a logo: the same.
    const none = await getLogo('', { token: other.adminToken });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ message: 'No logo' });
  });

  it("never serves another company's logo to a signed-in caller, and needs a token or a host name", async () => {
    const globexLogo = jpeg();
    expect((await uploadLogo(globexLogo, 'g.jpg', 'image/jpeg', other.adminToken)).statusCode).toBe(200);
    expect((await getLogo('', { token: other.adminToken })).rawPayload.equals(globexLogo)).toBe(true);
    expect((await getLogo('', { token: adminToken })).rawPayload.equals(bytes)).toBe(true);
    expect((await getLogo('?hostname=globex')).rawPayload.equals(globexLogo)).toBe(true);

    const anonymous = await getLogo();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Invalid JWT token' });
    expect((await getLogo('', { token: 'forged.token.value' })).statusCode).toBe(401);
  });

  it('hides the logo of a deactivated company', async () => {
    await server.db.update(companies).set({ isActive: false }).where(eq(companies.id, other.companyId));
    try {
      const res = await getLogo('?hostname=globex');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'No logo' });
    } finally {
      await server.db.update(companies).set({ isActive: true }).where(eq(companies.id, other.companyId));
    }
  });

  it('sends an SVG logo with a Content-Security-Policy that runs and loads nothing', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4" fill="#123"/></svg>';
    expect((await uploadLogo(Buffer.from(svg), 'l.svg', 'image/svg+xml')).statusCode).toBe(200);
    const res = await getLogo('?hostname=acme');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toBe(SVG_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toBe(svg);
  });
});
