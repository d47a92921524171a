import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken } from '../../server/auth/tokens';

const key = new Uint8Array(crypto.randomBytes(32));
const claims = { sid: 's-1', sub: 'u-1', cid: 'c-1', stg: 'full' as const };
const inAnHour = () => new Date(Date.now() + 3_600_000);

describe('access tokens', () => {
  it('verifies a token this server signed', async () => {
    expect(await verifyAccessToken(key, await signAccessToken(key, claims, inAnHour()))).toEqual(claims);
  });

  it('refuses another key, a changed payload, an expired token and a foreign issuer', async () => {
    const token = await signAccessToken(key, claims, inAnHour());
    expect(await verifyAccessToken(new Uint8Array(crypto.randomBytes(32)), token)).toBeNull();

    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'u-2', iss: 'dataops-console', exp: 9_999_999_999 })).toString('base64url');
    expect(await verifyAccessToken(key, `${header}.${forged}.${signature}`)).toBeNull();

    expect(await verifyAccessToken(key, await signAccessToken(key, claims, new Date(Date.now() - 1000)))).toBeNull();

    const foreign = await new SignJWT({ sid: 's-1', cid: 'c-1', stg: 'full' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u-1')
      .setIssuer('someone-else')
      .setExpirationTime(Math.floor(inAnHour().getTime() / 1000))
      .sign(key);
    expect(await verifyAccessToken(key, foreign)).toBeNull();
  });

  it('refuses an unsigned token, another algorithm, a bad stage and garbage', async () => {
    const body = Buffer.from(JSON.stringify({ ...claims, iss: 'dataops-console', exp: 9_999_999_999 })).toString('base64url');
    const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    expect(await verifyAccessToken(key, `${none}.${body}.`)).toBeNull();

    const hs512 = await new SignJWT({ sid: 's-1', cid: 'c-1', stg: 'full' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('u-1')
      .setIssuer('dataops-console')
      .setExpirationTime(Math.floor(inAnHour().getTime() / 1000))
      .sign(new Uint8Array(crypto.randomBytes(64)));
    expect(await verifyAccessToken(key, hs512)).toBeNull();

    expect(await verifyAccessToken(key, await signAccessToken(key, { ...claims, stg: 'root' as never }, inAnHour()))).toBeNull();
    for (const garbage of ['', 'a.b', 'a.b.c', '...', 'x'.repeat(5000)]) expect(await verifyAccessToken(key, garbage)).toBeNull();
  });

  describe('verified before', () => {
    afterEach(() => vi.useRealTimers());

    it('still expires: a token that passed once is refused after its time', async () => {
      const token = await signAccessToken(key, claims, new Date(Date.now() + 60_000));
      expect(await verifyAccessToken(key, token)).toEqual(claims);
      expect(await verifyAccessToken(key, token)).toEqual(claims);
      vi.useFakeTimers({ now: Date.now() + 61_000 });
      expect(await verifyAccessToken(key, token)).toBeNull();
    });

    it('is known only to the key that verified it', async () => {
      const token = await signAccessToken(key, claims, inAnHour());
      expect(await verifyAccessToken(key, token)).toEqual(claims);
      expect(await verifyAccessToken(new Uint8Array(crypto.randomBytes(32)), token)).toBeNull();
    });
  });
});
