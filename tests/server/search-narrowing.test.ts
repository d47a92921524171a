import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { createTestServer, type TestServer } from './harness';
import { systemAudits, users } from '../../server/db/schema';
import { innerTrigrams, rarePart, rowSecuredWay, searchCondition } from '../../server/http/search';
import { auditsSearch } from '../../server/audits/system-audits';
import { isRowSecured } from '../../server/db/client';
import { withTenant } from '../../server/db/tenant-scope';
import { and, eq, inArray } from 'drizzle-orm';
import { usersSearch } from '../../server/users/rows';
import { call, signInAdmin } from './helpers';

/** Searches ask the trigram index for the rare part of their text only, and still answer exactly what `ilike` would. */

const sampleOf = (texts: string[]) => {
  const groups = new Map<string, number>();
  for (const text of texts) for (const group of innerTrigrams(text)) groups.set(group, (groups.get(group) ?? 0) + 1);
  return { rows: texts.length, groups };
};

describe('the rare part of a search', () => {
  const company = sampleOf(Array.from({ length: 500 }, (_, i) => `user${i}@acme.test\u001fuser${i}\u001fFirst${i} Last${i}`));

  it('is the longest run of a word whose three-letter groups are rare', () => {
    // "use", "ser", "acm", "cme", "tes", "est" are in every row, "er4" in 111 of 500 (user4, user4x,
    // user4xx), "r42" in 11; "424" and "242" in one each.
    expect(rarePart('user424@acme.test', company)).toBe('424');
    expect(rarePart('USER4242', company)).toBe('4242');
  });

  it('is nothing when the text is one rare word already, when nothing in it is rare, or when the sample is small', () => {
    expect(rarePart('424', company)).toBeNull();
    expect(rarePart('acme.test', company)).toBeNull();
    expect(rarePart('ab', company)).toBeNull();
    expect(rarePart('user424', sampleOf(['user1', 'user2']))).toBeNull();
  });

  it('reads words as the trigram index does: letters and digits, lower-cased', () => {
    expect([...innerTrigrams('Ab-cdE f')]).toEqual(['cde']);
    expect([...innerTrigrams('Zoë42')]).toEqual(['zoë', 'oë4', 'ë42']);
  });
});

describe('walking the list or asking the index, where rows are held to their company', () => {
  /** A sample as the server keeps it under row-level security: groups, the texts lower-cased, the company's rows. */
  const securedSample = (texts: string[], companyRows: number) => ({
    ...sampleOf(texts),
    texts: texts.map((t) => t.toLowerCase()),
    companyRows,
  });
  const numbered = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i));

  it('walks a small company, and a text with no three letters in a word for the index to read', () => {
    expect(
      rowSecuredWay(
        'user4',
        securedSample(
          numbered(99, (i) => `user${i}`),
          99,
        ),
      ),
    ).toEqual({ walk: true });
    expect(
      rowSecuredWay(
        'n4',
        securedSample(
          numbered(1000, (i) => `user${i}`),
          100_000,
        ),
      ),
    ).toEqual({ walk: true });
  });

  it('asks the index for a text no sampled row holds, even when each of its letter groups is common', () => {
    // "abc" and "bcd" are each in half the rows; "abcd" in none: a walk would read the whole list for it.
    const sample = securedSample(
      numbered(1000, (i) => (i % 2 ? `abcx${i}` : `xbcd${i}`)),
      1_000_000,
    );
    expect(rarePart('abcd', sample)).toBeNull();
    expect(rowSecuredWay('abcd', sample)).toEqual({ walk: false, part: 'abcd' });
    // The index is asked with ilike: the part keeps the letters as typed.
    expect(rowSecuredWay('ABCD', sample)).toEqual({ walk: false, part: 'ABCD' });
  });

  it('asks the index for the rare part of a rare text', () => {
    const sample = securedSample(
      numbered(1000, (i) => `user${i}@acme.test`),
      100_000,
    );
    expect(rowSecuredWay('user424@acme.test', sample)).toEqual({ walk: false, part: 'r424' });
  });

  it('walks a text so common that its page fills at once and its count stops early', () => {
    const users = securedSample(
      numbered(1000, (i) => `user${i}@acme.test`),
      100_000,
    );
    expect(rowSecuredWay('acme', users)).toEqual({ walk: true });
    expect(rowSecuredWay('USER', users)).toEqual({ walk: true });
  });

  it('weighs a text held by a few rows in a hundred by the company’s size', () => {
    // In 1% of the rows: walking a million rows to count 10,000 costs more than reading 10,000 through the index.
    const onePercent = (rows: number) =>
      securedSample(
        numbered(1000, (i) => (i % 100 === 0 ? `needle ${i}` : `hay ${i}`)),
        rows,
      );
    expect(rowSecuredWay('needle', onePercent(1_000_000))).toEqual({ walk: false, part: 'needle' });
    // In 20%: 50,000 rows walked against 600,000 read through the index.
    const fifth = securedSample(
      numbered(1000, (i) => (i % 5 === 0 ? `needle ${i}` : `hay ${i}`)),
      1_000_000,
    );
    expect(rowSecuredWay('needle', fifth)).toEqual({ walk: true });
  });
});

describe('searching users through the rare part', () => {
  let server: TestServer;
  let adminToken: string;
  const people: Array<{ email: string; username: string; firstName: string; lastName: string }> = [];

  beforeAll(async () => {
    server = await createTestServer();
    adminToken = (await signInAdmin(server)).accessToken!;
    for (let i = 0; i < 300; i++) {
      people.push({ email: `person${i}@acme.test`, username: `acme.person${i}`, firstName: `Person`, lastName: `Number${i % 37}` });
    }
    people.push({ email: 'zoë.smith@acme.test', username: 'zoe', firstName: 'Zoë', lastName: 'Smith' });
    await server.db
      .insert(users)
      .values(people.map((p) => ({ ...p, companyId: server.company.companyId, roleId: server.company.memberRoleId, status: 'active' })));
  });
  afterAll(async () => server?.close());

  const emailsFound = async (search: string) => {
    const res = await call(server, 'POST', '/users/filter/1000/0/ASC/email', { token: adminToken, body: { search } });
    expect(res.statusCode, res.body).toBe(200);
    return res
      .json()
      .data.rows.map((row: { email: string }) => row.email)
      .filter((email: string) => email !== server.company.adminEmail);
  };
  const expected = (search: string) =>
    people
      .filter((p) =>
        [p.email, p.username, `${p.firstName} ${p.lastName}`].some((field) => field.toLowerCase().includes(search.toLowerCase())),
      )
      .map((p) => p.email)
      .sort();

  it('answers exactly what a plain substring search answers', async () => {
    for (const search of [
      'person42@acme',
      'PERSON42',
      'acme.person7',
      'person1@acme.test',
      'Number3',
      'Person Number12',
      'zoë',
      'acme.test',
      'n4',
      'nobody@acme',
    ]) {
      expect(await emailsFound(search), search).toEqual(expected(search));
    }
  });

  it('asks the index for the rare part and checks the whole text on what it finds', async () => {
    const condition = await searchCondition(server.db, usersSearch, server.company.companyId, 'person42@acme');
    const { sql, params } = new PgDialect().sqlToQuery(condition!);
    // "on4" is in person4 and person40–49: common among 302 rows; "n42" is in person42 only.
    expect(params).toEqual(['%n42%', '%person42@acme%']);
    expect(sql).toMatch(/ilike \$1 and lower\(.*\) like lower\(\$2\)/);
  });
});

describe('searching a log for a text and the people it names', () => {
  let server: TestServer;
  let adminToken: string;
  let kiwiId: string;
  /** 150 entries of the company: "kiwi" in the record of two, and five made by Kiwi Person. */
  const entries: Array<{ id: string; recordId: string; userId: string | null; createdAt: Date }> = [];

  beforeAll(async () => {
    server = await createTestServer();
    adminToken = (await signInAdmin(server)).accessToken!;
    const [kiwi] = await server.db
      .insert(users)
      .values({
        email: 'kiwi.person@acme.test',
        username: 'kiwi',
        firstName: 'Kiwi',
        lastName: 'Person',
        companyId: server.company.companyId,
        roleId: server.company.memberRoleId,
        status: 'active',
      })
      .returning({ id: users.id });
    kiwiId = kiwi.id;
    const start = Date.now() - 1_000_000;
    const stored = await server.db
      .insert(systemAudits)
      .values(
        Array.from({ length: 150 }, (_, i) => ({
          companyId: server.company.companyId,
          userId: i % 30 === 7 ? kiwiId : null,
          model: 'workspace',
          operation: 'update',
          recordId: i === 40 || i === 90 ? `kiwi-${i}` : `rec-${i}`,
          changes: { after: { n: i } },
          createdAt: new Date(start + i * 1000),
        })),
      )
      .returning({ id: systemAudits.id, recordId: systemAudits.recordId, userId: systemAudits.userId, createdAt: systemAudits.createdAt });
    entries.push(...stored.map((e) => ({ ...e, recordId: e.recordId! })));
  });
  afterAll(async () => server?.close());

  it('finds both, newest first, with their exact count', async () => {
    const res = await call(server, 'POST', '/system/audits/filter/0/100', { token: adminToken, body: { search: 'kiwi' } });
    expect(res.statusCode, res.body).toBe(200);
    const expected = entries
      .filter((e) => e.recordId.includes('kiwi') || e.userId === kiwiId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    expect(expected).toHaveLength(7);
    expect(res.json().data.rows.map((row: { id: string }) => row.id)).toEqual(expected.map((e) => e.id));
    expect(res.json().data.count).toBe(7);
  });

  it('reads them as one set of ids where rows are held to their company, and with an `or` of two indexes elsewhere', async () => {
    const theirs = and(eq(systemAudits.companyId, server.company.companyId), inArray(systemAudits.userId, [kiwiId]));
    // The server's own connections: where the policies hold rows to the company of the work.
    const db = server.database.db;
    const condition = await withTenant(server.company.companyId, () =>
      searchCondition(db, auditsSearch, server.company.companyId, 'kiwi', {
        rows: inArray(systemAudits.userId, [kiwiId]),
        ids: db.select({ id: systemAudits.id }).from(systemAudits).where(theirs).getSQL(),
      }),
    );
    const { sql } = new PgDialect().sqlToQuery(condition!);
    if (isRowSecured(db)) {
      // `id = any(array)` beside an `or` compared every row of the company with every found id: 25 s on 1,000,000 rows.
      expect(sql).toMatch(/^"system_audits"\."id" in \(select unnest\(\(select company_search_ids\(.*\)\)\) union all select /);
      expect(sql).not.toMatch(/ or |= any/);
    } else {
      expect(sql).toMatch(/ilike .* or "system_audits"\."user_id" in/);
    }
  });
});
