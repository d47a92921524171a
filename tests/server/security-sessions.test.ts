import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { systemAudits } from '../../server/db/schema';
import { accessEventsOf, call, createActiveUser, createOtherCompany, sessionIdOf, sessionRow, signInAdmin, signInFully } from './helpers';

let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).token;
});
afterAll(async () => {
  await server?.close();
});

describe("the user's own sessions", () => {
  it('lists only the open sessions of the caller, marking this one', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'own.list@acme.test' });
    const first = await signInFully(server, member);
    const second = await signInFully(server, member);
    const ended = await signInFully(server, member);
    expect((await call(server, 'PUT', '/session/logout', { token: ended.token, body: {} })).statusCode).toBe(200);

    const res = await call(server, 'GET', '/user/sessions', { token: second.token });
    expect(res.statusCode, res.body).toBe(200);
    const rows: Array<{ id: string; userId: string; current: boolean; active: boolean }> = res.json().data.rows;
    expect(rows.map((r) => r.id).sort()).toEqual([sessionIdOf(first.token), sessionIdOf(second.token)].sort());
    expect(rows.every((r) => r.userId === member.id && r.active)).toBe(true);
    expect(rows.find((r) => r.current)?.id).toBe(sessionIdOf(second.token));
  });

  it('ends another of its own sessions at once, audited', async () => {
    const member = await createActiveUser(server, adminToken, { email: 'own.end@acme.test' });
    const laptop = await signInFully(server, member);
    const phone = await signInFully(server, member);
    const laptopId = sessionIdOf(laptop.token);
    const res = await call(server, 'DELETE', `/user/sessions/${laptopId}`, { token: phone.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('The session has been ended');
    expect((await call(server, 'GET', '/user/profile', { token: laptop.token })).statusCode).toBe(401);
    expect((await call(server, 'GET', '/user/profile', { token: phone.token })).statusCode).toBe(200);
    expect(await sessionRow(server.db, laptopId)).toMatchObject({ endReason: 'logout', isDeleted: true });
    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.recordId, laptopId), eq(systemAudits.operation, 'end')));
    expect(audit).toMatchObject({ userId: member.id, model: 'session' });
    const events = await accessEventsOf(server.db, member.email);
    expect(events.some((e) => e.event === 'session_end' && e.status === 'success')).toBe(true);

    const again = await call(server, 'DELETE', `/user/sessions/${laptopId}`, { token: phone.token });
    expect(again.statusCode).toBe(404);
  });

  it("cannot see or end anyone else's sessions, in the company or outside it", async () => {
    const member = await createActiveUser(server, adminToken, { email: 'own.mine@acme.test' });
    const colleague = await createActiveUser(server, adminToken, { email: 'own.theirs@acme.test' });
    const mine = await signInFully(server, member);
    const theirs = await signInFully(server, colleague);
    const other = await createOtherCompany(server, 'sessco');

    const list = (await call(server, 'GET', '/user/sessions', { token: mine.token })).json().data.rows as Array<{ id: string }>;
    expect(list.map((r) => r.id)).not.toContain(sessionIdOf(theirs.token));
    for (const token of [mine.token, other.adminToken]) {
      const res = await call(server, 'DELETE', `/user/sessions/${sessionIdOf(theirs.token)}`, { token });
      expect(res.statusCode).toBe(404);
    }
    expect((await call(server, 'GET', '/user/profile', { token: theirs.token })).statusCode).toBe(200);
    const bad = await call(server, 'DELETE', '/user/sessions/not-a-session', { token: mine.token });
    expect(bad.statusCode).toBe(400);
    expect((await call(server, 'GET', '/user/sessions')).statusCode).toBe(401);
  });
});
