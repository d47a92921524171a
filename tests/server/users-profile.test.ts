import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { accessEvents, systemAudits, users } from '../../server/db/schema';
import { verifyPassword } from '../../server/auth/passwords';
import {
  call,
  createActiveUser,
  createOtherCompany,
  freshIp,
  HOSTILE,
  signIn,
  signInAdmin,
  signInFully,
  snapshot,
  userRow,
  userWithPolicies,
} from './helpers';

/**
 * The signed-in user's side of the users area: the own profile with its picture, username
 * checks, MPIN, the AI notification preference, and the activity cards of a profile.
 */

const DENIED = 'Resource Access not provided';
let server: TestServer;
let adminToken: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let otherUserId: string;
let member: { id: string; email: string; password: string; token: string };
let reader: Awaited<ReturnType<typeof userWithPolicies>>;

beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
  other = await createOtherCompany(server);
  const [foreign] = await server.db
    .insert(users)
    .values({
      companyId: other.companyId,
      email: 'someone@globex.test',
      username: 'taken.elsewhere',
      status: 'active',
      roleId: other.memberRoleId,
    })
    .returning();
  otherUserId = foreign.id;
  const created = await createActiveUser(server, adminToken, { email: 'me@acme.test', firstName: 'Mia' });
  member = { ...created, token: (await signInFully(server, created)).accessToken! };
  reader = await userWithPolicies(server, adminToken, 'profile.reader@acme.test', [{ resource: 'users', actions: ['read'] }]);
});

afterAll(async () => {
  await server?.close();
});

async function lastAudit(recordId: string, operation: string) {
  const rows = await server.db
    .select()
    .from(systemAudits)
    .where(and(eq(systemAudits.recordId, recordId), eq(systemAudits.operation, operation)))
    .orderBy(systemAudits.createdAt);
  return rows[rows.length - 1];
}

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

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(200)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(200)]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x10, 0, 0, 0]), Buffer.from('WEBPVP8 '), crypto.randomBytes(200)]);

const putProfile = (token: string, body: unknown, headers?: Record<string, string>) =>
  call(server, 'PUT', '/user/profile', { token, body, headers });
const putForm = (token: string, parts: Part[]) => {
  const { body, headers } = form(parts);
  return putProfile(token, body, headers);
};

describe('GET /user/profile', () => {
  it('keeps the session-user shape and adds the full record under data', async () => {
    const res = await call(server, 'GET', '/user/profile', { token: member.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ id: member.id, email: 'me@acme.test', roleName: 'Member', impersonator: null });
    expect(res.json().data).toMatchObject({
      id: member.id,
      status: 'active',
      phone: null,
      hasAvatar: false,
      aiNotification: false,
      workspaces: [],
    });
    expect(res.body).not.toMatch(/passwordHash|argon2/);
  });
});

describe('PUT /user/profile (own, JSON)', () => {
  it('saves names, username and phone, and audits the change', async () => {
    const res = await putProfile(member.token, { firstName: 'Mia', lastName: 'Mills', username: 'Mia.Mills', phone: '(020) 7946-0958' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Your profile has been saved');
    expect(res.json().data).toMatchObject({ firstName: 'Mia', lastName: 'Mills', username: 'mia.mills', phone: '(020) 7946-0958' });
    expect(await userRow(server.db, member.id)).toMatchObject({ lastName: 'Mills', username: 'mia.mills' });
    const audit = await lastAudit(member.id, 'update_profile');
    expect(audit).toMatchObject({ model: 'user', userId: member.id });
    expect(audit.changes).toEqual({
      before: { lastName: 'Invitee', username: null, phone: null },
      after: { lastName: 'Mills', username: 'mia.mills', phone: '(020) 7946-0958' },
    });
    // Keeping one's own username is no conflict.
    expect((await putProfile(member.token, { username: 'MIA.MILLS' })).statusCode).toBe(200);
  });

  it('names bad fields, refuses a taken username, and changes nothing', async () => {
    await createActiveUser(server, adminToken, { email: 'holder@acme.test' }).then((u) =>
      server.db.update(users).set({ username: 'held.name' }).where(eq(users.id, u.id)),
    );
    const before = await snapshot(server.db);
    const cases: [unknown, number, RegExp][] = [
      [{ firstName: '' }, 400, /^firstName: is required$/],
      [{ lastName: HOSTILE.html }, 400, /^lastName: may only contain letters/],
      [{ username: 'x' }, 400, /^username: must be at least 3 characters/],
      [{ username: 'y'.repeat(41) }, 400, /^username: must be at most 40 characters/],
      [{ username: 'white space' }, 400, /^username: may only contain/],
      [{ phone: HOSTILE.sql }, 400, /^phone: must be a phone number/],
      [{ phone: 12345 }, 400, /^phone: must be a string/],
      [{ removeAvatar: 'maybe' }, 400, /^removeAvatar: must be true or false/],
      [{ avatar: 'data:image/png;base64,AAAA' }, 400, /^avatar: send the picture as a file/],
      [['firstName'], 400, /^body: must be an object/],
      [{ username: 'HELD.name' }, 409, /^username: is already taken$/],
      [{ firstName: HOSTILE.huge }, 413, /too large/],
    ];
    for (const [body, status, message] of cases) {
      const res = await putProfile(member.token, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('lets a username another company uses be taken here', async () => {
    const res = await putProfile(member.token, { username: 'taken.elsewhere' });
    expect(res.statusCode).toBe(200);
    expect((await userRow(server.db, otherUserId)).username).toBe('taken.elsewhere');
    await putProfile(member.token, { username: 'mia.mills' });
  });
});

describe('PUT /user/profile (own, multipart) and GET /user/avatar/{id}', () => {
  it('stores a PNG, JPEG or WebP picture by its bytes, whatever type the form claims', async () => {
    for (const [bytes, type] of [
      [PNG, 'image/png'],
      [JPEG, 'image/jpeg'],
      [WEBP, 'image/webp'],
    ] as const) {
      const res = await putForm(member.token, [
        { name: 'firstName', value: 'Mia' },
        { name: 'avatar', filename: 'me.gif', type: 'application/octet-stream', data: bytes },
      ]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.hasAvatar).toBe(true);
      expect(res.body).not.toMatch(/"avatar"/);
      const row = await userRow(server.db, member.id);
      expect(row.avatarType).toBe(type);
      expect(row.avatar?.equals(bytes)).toBe(true);

      // Any signed-in user of the company may see it.
      const image = await call(server, 'GET', `/user/avatar/${member.id}`, { token: reader.token });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe(type);
      expect(image.headers['cache-control']).toBe('private, max-age=300');
      expect(image.headers['x-content-type-options']).toBe('nosniff');
      expect(image.rawPayload.equals(bytes)).toBe(true);
    }
    const audit = await lastAudit(member.id, 'update_profile');
    expect(audit.changes).toEqual({
      before: { avatar: `image/jpeg, ${JPEG.length} bytes` },
      after: { avatar: `image/webp, ${WEBP.length} bytes` },
    });
  });

  it('validates the form fields like JSON ones, and an empty file input is no picture', async () => {
    const before = await snapshot(server.db);
    const bad = await putForm(member.token, [
      { name: 'firstName', value: HOSTILE.html },
      { name: 'avatar', filename: 'ok.png', type: 'image/png', data: PNG },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^firstName: may only contain letters/);
    expect(await snapshot(server.db)).toEqual(before);

    const noFile = await putForm(member.token, [
      { name: 'lastName', value: 'Miller' },
      { name: 'avatar', filename: '', type: 'application/octet-stream', data: Buffer.alloc(0) },
    ]);
    expect(noFile.statusCode, noFile.body).toBe(200);
    const row = await userRow(server.db, member.id);
    expect(row).toMatchObject({ lastName: 'Miller', avatarType: 'image/webp' });
  });

  it('answers a form cut short with a 400, changing nothing', async () => {
    const before = await snapshot(server.db);
    const boundary = '----cutshort';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="me.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const res = await server.app.inject({
      method: 'PUT',
      url: '/api/v1/user/profile',
      headers: { 'x-access-token': member.token, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([body, PNG.subarray(0, 8)]),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/^body: the multipart form could not be read/);
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('refuses a file that is not an accepted image (415), one over 1 MB (413), and other files, changing nothing', async () => {
    const before = await snapshot(server.db);
    const cases: [Part[], number, RegExp][] = [
      [
        [{ name: 'avatar', filename: 'evil.png', type: 'image/png', data: Buffer.from('<svg onload="alert(1)"></svg>') }],
        415,
        /^avatar: must be a PNG, JPEG or WebP image$/,
      ],
      [
        [{ name: 'avatar', filename: 'anim.gif', type: 'image/gif', data: Buffer.from('GIF89a....') }],
        415,
        /^avatar: must be a PNG, JPEG or WebP image$/,
      ],
      [
        [{ name: 'avatar', filename: 'big.png', type: 'image/png', data: Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]) }],
        413,
        /^avatar: must be at most 1 MB$/,
      ],
      [[{ name: 'avatar', filename: 'empty.png', type: 'image/png', data: Buffer.alloc(0) }], 400, /^avatar: the file is empty$/],
      [[{ name: 'cv', filename: 'cv.png', type: 'image/png', data: PNG }], 400, /^cv: only one file, named "avatar", may be sent$/],
      [
        [
          { name: 'avatar', filename: 'a.png', type: 'image/png', data: PNG },
          { name: 'avatar', filename: 'b.png', type: 'image/png', data: PNG },
        ],
        413,
        /^avatar: only one file may be sent$/,
      ],
      [Array.from({ length: 25 }, (_, i) => ({ name: `f${i}`, value: 'x' })), 413, /too many fields/],
      [[{ name: 'lastName', value: 'y'.repeat(20 * 1024) }], 413, /^lastName: must be at most 16 KB$/],
      [
        [
          { name: 'avatar', filename: 'a.png', type: 'image/png', data: PNG },
          { name: 'removeAvatar', value: 'true' },
        ],
        400,
        /^removeAvatar: cannot be true/,
      ],
    ];
    for (const [parts, status, message] of cases) {
      const res = await putForm(member.token, parts);
      expect(res.statusCode, JSON.stringify(parts.map((p) => p.name))).toBe(status);
      expect(res.json().message).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
    // Exactly 1 MB is fine.
    const edge = await putForm(member.token, [
      { name: 'avatar', filename: 'edge.png', type: 'image/png', data: Buffer.concat([PNG, Buffer.alloc(1024 * 1024 - PNG.length)]) },
    ]);
    expect(edge.statusCode, edge.body).toBe(200);
  });

  it('removes the picture on request; then, and for users of other companies, the picture is a 404', async () => {
    const res = await putForm(member.token, [{ name: 'removeAvatar', value: 'true' }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.hasAvatar).toBe(false);
    expect((await userRow(server.db, member.id)).avatar).toBeNull();
    expect((await lastAudit(member.id, 'update_profile')).changes).toMatchObject({ after: { avatar: null } });
    const gone = await call(server, 'GET', `/user/avatar/${member.id}`, { token: reader.token });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Avatar not found');

    await server.db.update(users).set({ avatar: PNG, avatarType: 'image/png' }).where(eq(users.id, otherUserId));
    const foreign = await call(server, 'GET', `/user/avatar/${otherUserId}`, { token: adminToken });
    expect(foreign.statusCode).toBe(404);
    const fromThere = await putForm(member.token, [{ name: 'avatar', filename: 'a.png', type: 'image/png', data: PNG }]);
    expect(fromThere.statusCode).toBe(200);
    expect((await call(server, 'GET', `/user/avatar/${member.id}`, { token: other.adminToken })).statusCode).toBe(404);
    const bad = await call(server, 'GET', '/user/avatar/nope', { token: adminToken });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^id: must be a valid id/);
    expect((await call(server, 'GET', `/user/avatar/${member.id}`)).statusCode).toBe(401);
  });
});

describe('GET /users/username/check/{name}', () => {
  it('tells whether a name is free in the company, case-insensitively; one’s own counts as free', async () => {
    const check = async (name: string, token = reader.token, query = '') => {
      const res = await call(server, 'GET', `/users/username/check/${name}${query}`, { token });
      expect(res.statusCode, name).toBe(200);
      return res.json().data.available;
    };
    expect(await check('MIA.MILLS')).toBe(false);
    expect(await check('mia.mills', member.token)).toBe(true);
    expect(await check('mia.mills', adminToken, `?userId=${member.id}`)).toBe(true);
    expect(await check('free-name_1')).toBe(true);
    expect(await check('taken.elsewhere', adminToken)).toBe(true);
    const cases: [string, RegExp][] = [
      ['ab', /^name: must be at least 3 characters/],
      [encodeURIComponent('a b c'), /^name: may only contain/],
      [encodeURIComponent(HOSTILE.sql), /^name: /],
      ['x'.repeat(41), /^name: must be at most 40 characters/],
    ];
    for (const [name, message] of cases) {
      const res = await call(server, 'GET', `/users/username/check/${name}`, { token: reader.token });
      expect(res.statusCode, name).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const badQuery = await call(server, 'GET', '/users/username/check/fine.name?userId=x', { token: reader.token });
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().message).toMatch(/^userId: must be a valid id/);
  });
});

describe('PUT /user/mpin/create/{id}', () => {
  it('stores one’s own MPIN hashed, never answering it, and audits without it', async () => {
    const res = await call(server, 'PUT', `/user/mpin/create/${member.id}`, { token: member.token, body: { mpin: '4821' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Your MPIN has been saved' });
    const row = await userRow(server.db, member.id);
    expect(row.mpinHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row.mpinHash, '4821')).toBe(true);
    const audit = await lastAudit(member.id, 'set_mpin');
    expect(audit.changes).toEqual({ before: { mpin: 'none' }, after: { mpin: 'set' } });
    expect(JSON.stringify(audit.changes)).not.toMatch(/4821|argon2/);
    const profile = await call(server, 'GET', '/user/profile', { token: member.token });
    expect(profile.body).not.toMatch(/mpin/i);
    const again = await call(server, 'PUT', `/user/mpin/create/${member.id}`, { token: member.token, body: { mpin: '123456' } });
    expect(again.statusCode).toBe(200);
    expect((await lastAudit(member.id, 'set_mpin')).changes).toEqual({ before: { mpin: 'set' }, after: { mpin: 'set' } });
  });

  it('takes 4 to 6 digits only, and changes nothing otherwise', async () => {
    const before = await snapshot(server.db);
    const cases: [unknown, RegExp][] = [
      [{ mpin: '123' }, /^mpin: must be 4 to 6 digits$/],
      [{ mpin: '1234567' }, /^mpin: must be 4 to 6 digits$/],
      [{ mpin: '12a4' }, /^mpin: must be 4 to 6 digits$/],
      [{ mpin: ' 1234' }, /^mpin: must be 4 to 6 digits$/],
      [{ mpin: 1234 }, /^mpin: is required|^mpin: /],
      [{}, /^mpin: is required$/],
    ];
    for (const [body, message] of cases) {
      const res = await call(server, 'PUT', `/user/mpin/create/${member.id}`, { token: member.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('lets an admin set anyone’s, but a member only their own; other companies’ users are a 404', async () => {
    const before = await snapshot(server.db);
    const notMine = await call(server, 'PUT', `/user/mpin/create/${reader.id}`, { token: member.token, body: { mpin: '1111' } });
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json().message).toBe(DENIED);
    const foreign = await call(server, 'PUT', `/user/mpin/create/${otherUserId}`, { token: adminToken, body: { mpin: '1111' } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('User not found');
    expect(await snapshot(server.db)).toEqual(before);
    const byAdmin = await call(server, 'PUT', `/user/mpin/create/${reader.id}`, { token: adminToken, body: { mpin: '2222' } });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().message).toBe('The MPIN of profile.reader@acme.test has been saved');
    expect(await verifyPassword((await userRow(server.db, reader.id)).mpinHash, '2222')).toBe(true);
    expect(await lastAudit(reader.id, 'set_mpin')).toMatchObject({ userId: server.company.adminUserId });
  });

  it('is refused while impersonating', async () => {
    const imp = await call(server, 'POST', '/user/impersonate', { token: adminToken, body: { userId: member.id } });
    expect(imp.statusCode).toBe(200);
    const res = await call(server, 'PUT', `/user/mpin/create/${member.id}`, { token: imp.json().user.accessToken, body: { mpin: '9999' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This is not allowed while impersonating another user');
    expect(await verifyPassword((await userRow(server.db, member.id)).mpinHash, '9999')).toBe(false);
  });
});

describe('PUT /user/notification', () => {
  it('turns the AI notification on and off for oneself, with an audit entry', async () => {
    const on = await call(server, 'PUT', '/user/notification', { token: member.token, body: { aiNotification: true } });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ message: 'AI notifications are on', data: { aiNotification: true } });
    expect((await userRow(server.db, member.id)).aiNotification).toBe(true);
    expect((await lastAudit(member.id, 'update_notification')).changes).toEqual({
      before: { aiNotification: false },
      after: { aiNotification: true },
    });
    const profile = await call(server, 'GET', '/user/profile', { token: member.token });
    expect(profile.json().data.aiNotification).toBe(true);
    const off = await call(server, 'PUT', '/user/notification', { token: member.token, body: { aiNotification: false } });
    expect(off.json().data).toEqual({ aiNotification: false });
    expect((await userRow(server.db, reader.id)).aiNotification).toBe(false);
  });

  it('takes a boolean only', async () => {
    const before = await snapshot(server.db);
    for (const body of [{ aiNotification: 'true' }, { aiNotification: 1 }, {}, { aiNotification: null }]) {
      const res = await call(server, 'PUT', '/user/notification', { token: member.token, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(/^aiNotification: must be true or false$/);
    }
    expect(await snapshot(server.db)).toEqual(before);
  });
});

describe('GET /user/profile/cards/{userId}/{days}', () => {
  it('counts sign-ins, failed sign-ins, changes and open sessions over the period', async () => {
    const user = await createActiveUser(server, adminToken, { email: 'busy@acme.test' });
    const ip = freshIp();
    const first = await signInFully(server, { ...user, ip });
    await signInFully(server, { ...user, ip });
    expect((await signIn(server, { email: user.email, password: 'Wrong-pass-123', ip })).statusCode).toBe(401);
    await putProfile(first.accessToken!, { lastName: 'Busy' });
    await putProfile(first.accessToken!, { phone: '+1 555 0100' });
    await call(server, 'PUT', '/session/logout', { token: first.accessToken });
    // An old sign-in, out of a short period but inside a long one.
    await server.db.insert(accessEvents).values({
      companyId: server.company.companyId,
      userId: user.id,
      email: user.email,
      event: 'signin',
      status: 'success',
      createdAt: new Date(Date.now() - 20 * 86_400_000),
    });

    const cards = async (days: number, token: string) => {
      const res = await call(server, 'GET', `/user/profile/cards/${user.id}/${days}`, { token });
      expect(res.statusCode, res.body).toBe(200);
      return Object.fromEntries(res.json().data.cards.map((c: { key: string; value: number }) => [c.key, c.value]));
    };
    // Changes: the account's activation and the two profile edits; the logout ended one session.
    const recent = await cards(7, reader.token);
    expect(recent).toEqual({ signins: 2, failedSignins: 1, changes: 3, openSessions: 1 });
    expect(await cards(30, adminToken)).toEqual({ signins: 3, failedSignins: 1, changes: 3, openSessions: 1 });
    const res = await call(server, 'GET', `/user/profile/cards/${user.id}/1`, { token: reader.token });
    expect(res.json().data.cards.map((c: { label: string }) => c.label)).toEqual([
      'Sign-ins in the last day',
      'Failed sign-ins in the last day',
      'Changes made in the last day',
      'Open sessions',
    ]);
  });

  it('shows one’s own cards to anyone, others’ with users/read only; other companies’ users are a 404', async () => {
    expect((await call(server, 'GET', `/user/profile/cards/${member.id}/30`, { token: member.token })).statusCode).toBe(200);
    const denied = await call(server, 'GET', `/user/profile/cards/${reader.id}/30`, { token: member.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(DENIED);
    const foreign = await call(server, 'GET', `/user/profile/cards/${otherUserId}/30`, { token: adminToken });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('User not found');
    const cases: [string, RegExp][] = [
      [`${member.id}/0`, /^days: must be at least 1/],
      [`${member.id}/366`, /^days: must be at most 365/],
      [`${member.id}/week`, /^days: must be a number/],
      [`${member.id}/1.5`, /^days: must be a whole number/],
      ['me/30', /^userId: must be a valid id/],
    ];
    for (const [path, message] of cases) {
      const res = await call(server, 'GET', `/user/profile/cards/${path}`, { token: member.token });
      expect(res.statusCode, path).toBe(400);
      expect(res.json().message).toMatch(message);
    }
  });
});
