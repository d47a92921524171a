import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { call, createActiveUser, signInAdmin, signInFully } from './helpers';
import { sessions } from '../../server/db/schema';
import { LIVE_LIMITS } from '../../server/live/streams';
import { baseUrl, openStream, streamHeaders, type OpenedStream } from './live/stream-client';

/**
 * Who may open the live stream (GET /events) and when it ends: a signed-in session only, with the
 * same token check as every call; it ends when the session is signed out or ended by an admin,
 * and when the server stops.
 */

let server: TestServer;
let adminToken: string;
const opened: OpenedStream[] = [];
const saved = { ...LIVE_LIMITS };

async function open(headers: Record<string, string>) {
  const stream = await openStream(server, headers);
  opened.push(stream);
  return stream;
}

beforeAll(async () => {
  Object.assign(LIVE_LIMITS, { heartbeatMs: 300, perSession: 2 });
  server = await createTestServer();
  adminToken = (await signInAdmin(server)).accessToken!;
});
afterAll(async () => {
  opened.forEach((stream) => stream.close());
  Object.assign(LIVE_LIMITS, saved);
  await server?.close();
});

describe('opening the live stream', () => {
  it('refuses a caller without a token, with a forged one, and one whose session was signed out', async () => {
    const none = await open({ accept: 'text/event-stream' });
    expect(none.status).toBe(401);
    expect(none.message).toBe('Invalid JWT token');

    const forged = await open(streamHeaders(`${adminToken.slice(0, -4)}AAAA`));
    expect(forged.status).toBe(401);

    const session = await signInAdmin(server);
    expect((await call(server, 'PUT', '/session/logout', { token: session.accessToken!, body: {} })).statusCode).toBe(200);
    const revoked = await open(streamHeaders(session.accessToken!));
    expect(revoked.status).toBe(401);
    expect(revoked.message).toBe('Invalid JWT token');
  });

  it('refuses an API key: the stream belongs to a signed-in session', async () => {
    const refused = await open({ accept: 'text/event-stream', 'x-api-key': 'dk_not_a_session' });
    expect(refused.status).toBe(401);
  });

  it('asks for the event-stream type rather than hanging a plain JSON caller', async () => {
    const plain = await open({ accept: 'application/json', 'x-access-token': adminToken });
    expect(plain.status).toBe(406);
    expect(plain.message).toMatch(/text\/event-stream/);
  });

  it('opens for a signed-in session, says it is ready and beats with comment lines', async () => {
    const stream = await open(streamHeaders(adminToken));
    expect(stream.status).toBe(200);
    await stream.next((event) => event.event === 'ready');
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(stream.comments).toBeGreaterThanOrEqual(2);
    stream.close();
  });

  it('holds a session to its limit of streams, and frees a place when one closes', async () => {
    const session = await signInAdmin(server);
    const first = await open(streamHeaders(session.accessToken!));
    const second = await open(streamHeaders(session.accessToken!));
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await open(streamHeaders(session.accessToken!));
    expect(third.status).toBe(429);
    expect(third.message).toMatch(/already has 2 live streams/);
    first.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await open(streamHeaders(session.accessToken!));
    expect(again.status).toBe(200);
  });
});

describe('ending the live stream', () => {
  it('ends the stream when its session signs out', async () => {
    const session = await signInAdmin(server);
    const stream = await open(streamHeaders(session.accessToken!));
    await stream.next((event) => event.event === 'ready');
    expect((await call(server, 'PUT', '/session/logout', { token: session.accessToken!, body: {} })).statusCode).toBe(200);
    expect((await stream.next((event) => event.event === 'end', 3_000)).data).toEqual({ reason: 'session' });
    await stream.ended;
  });

  it("ends a user's stream when an admin ends their session, and leaves other sessions' streams open", async () => {
    const member = await createActiveUser(server, adminToken, { email: 'streamer@acme.test' });
    const session = await signInFully(server, { email: member.email, password: member.password });
    const theirs = await open(streamHeaders(session.accessToken!));
    const mine = await open(streamHeaders(adminToken));
    await theirs.next((event) => event.event === 'ready');
    const [row] = await server.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, member.id));
    const ended = await call(server, 'PUT', '/session/logout', { token: adminToken, body: { sessionId: row.id } });
    expect(ended.statusCode, ended.body).toBe(200);
    expect((await theirs.next((event) => event.event === 'end', 3_000)).data).toEqual({ reason: 'session' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(mine.events.some((event) => event.event === 'end')).toBe(false);
  });

  it('ends every stream cleanly when the server stops, and is not held by a connection that sent nothing', async () => {
    const stream = await open(streamHeaders(adminToken));
    await stream.next((event) => event.event === 'ready');
    // A client's spare connection: open, no request. Node would wait for it until its headers timeout (a minute).
    const { port } = new URL(await baseUrl(server));
    const quiet = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => quiet.once('connect', resolve));
    const quietClosed = new Promise((resolve) => quiet.once('close', resolve));

    const closing = server.app.close();
    expect((await stream.next((event) => event.event === 'end', 3_000)).data).toEqual({ reason: 'shutdown' });
    await stream.ended;
    const held = new Promise((resolve) => setTimeout(() => resolve('still closing after 10 s'), 10_000).unref());
    expect(await Promise.race([closing.then(() => 'closed'), held])).toBe('closed');
    await quietClosed;
  });
});
