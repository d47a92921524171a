import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The instance secret, and what is derived from it: the key that signs access tokens and the key
 * that encrypts secrets at rest (TOTP secrets, later connection credentials). APP_SECRET wins;
 * otherwise a random secret is generated once into DATA_DIR/instance.secret (mode 0600).
 */
export interface Secrets {
  /** HMAC key for signing access tokens. */
  tokenKey: Uint8Array;
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  /** Keyed hash for one-time tokens stored in the database (reset, activation). */
  hashToken(token: string): string;
}

export function loadInstanceSecret(dataDir: string, appSecret: string | undefined): string {
  if (appSecret) {
    if (appSecret.length < 32) throw new Error('APP_SECRET must be at least 32 characters long');
    return appSecret;
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'instance.secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    /* first start */
  }
  const generated = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, generated + '\n', { mode: 0o600 });
  return generated;
}

function derive(secret: string, purpose: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', Buffer.from(secret), Buffer.alloc(0), Buffer.from(purpose), 32));
}

export function createSecrets(secret: string): Secrets {
  const tokenKey = derive(secret, 'dataops-console access tokens');
  const encryptionKey = derive(secret, 'dataops-console encryption at rest');
  const tokenHashKey = derive(secret, 'dataops-console one-time tokens');
  return {
    tokenKey: new Uint8Array(tokenKey),
    encrypt(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', encryptionKey, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    decrypt(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unrecognised encrypted value');
      const decipher = crypto.createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
    hashToken(token) {
      return crypto.createHmac('sha256', tokenHashKey).update(token).digest('base64url');
    },
  };
}
