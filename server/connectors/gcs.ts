import { createHash } from 'node:crypto';
import { importPKCS8, SignJWT } from 'jose';
import { callService, callServiceJson, openServiceStream, secureBaseUrl, ServiceAnswerError, serviceUrl, wordsWithCode } from './http';
import type { HttpOptions, HttpService } from './http';
import { normalisedPrefix, objectStoreTables } from './object-store';
import type { ObjectHead, ObjectPage, ObjectRead, ObjectStoreClient, HttpStoreOptions, StorePlace } from './object-store';
import type { FileTableSource } from './tabular';
import { checkedSettings, ConnectorError, type ConnectionConfig } from './types';

/**
 * The `gcs` type: CSV and Parquet objects of a Google Cloud Storage bucket under an optional
 * prefix, through the JSON API with a service account (no SDK). The account's JSON key signs a
 * JWT (RS256, jose) that its `token_uri` exchanges for an access token (OAuth 2.0 JWT bearer
 * grant, RFC 7523), kept in this process until a minute before it expires, whichever connector
 * instance asked for it (see `TokenCache`); objects are listed with
 * `objects.list`, described with `objects.get` and read with `alt=media` — at the generation
 * described, so that a file replaced while it is read is never read half old, half new.
 */

/** Reading is all the connector does: the token asks for no more. */
export const GCS_SCOPE = 'https://www.googleapis.com/auth/devstorage.read_only';
const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** A token is renewed this long before Google says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export interface ServiceAccountKey {
  clientEmail: string;
  privateKey: string;
  privateKeyId: string | undefined;
  tokenUri: URL;
}

export interface GcsSettings {
  bucket: string;
  prefix: string;
  endpoint: URL;
  key: ServiceAccountKey;
}

export interface GcsOptions extends HttpStoreOptions {
  /** The clock a token's expiry is judged by; Date.now unless told. */
  now?: () => number;
}

export function openGcsConnector(config: ConnectionConfig, options: GcsOptions): FileTableSource {
  const settings = gcsSettings(config);
  return objectStoreTables(
    new GcsClient(settings, accessTokens.keyOf(config.companyId, settings.key), options.http, options.now ?? Date.now),
    options.limits,
  );
}

export function gcsSettings(config: ConnectionConfig): GcsSettings {
  const { settings, secrets } = checkedSettings(config, 'gcs');
  return {
    bucket: String(settings.bucket).trim(),
    prefix: normalisedPrefix(settings.prefix),
    endpoint: secureBaseUrl(settings.endpoint, 'endpoint'),
    key: serviceAccountKey(secrets.serviceAccountKey!),
  };
}

/** The fields of a JSON key file the grant needs, each checked with a message that names it. */
export function serviceAccountKey(text: string): ServiceAccountKey {
  const field = 'settings.serviceAccountKey';
  let key: Record<string, unknown>;
  try {
    key = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new ConnectorError(`${field}: is not valid JSON (${(error as Error).message})`, 'invalid');
  }
  if (key === null || typeof key !== 'object' || Array.isArray(key)) throw new ConnectorError(`${field}: must be a JSON object`, 'invalid');
  if (key.type !== undefined && key.type !== 'service_account') {
    throw new ConnectorError(
      `${field}: is a key of type "${String(key.type)}"; a service account's key (type "service_account") is needed`,
      'invalid',
    );
  }
  const text_ = (name: string) =>
    typeof key[name] === 'string' && (key[name] as string).trim() !== '' ? (key[name] as string).trim() : undefined;
  const clientEmail = text_('client_email');
  const privateKey = text_('private_key');
  if (!clientEmail) throw new ConnectorError(`${field}: has no client_email`, 'invalid');
  if (!privateKey) throw new ConnectorError(`${field}: has no private_key`, 'invalid');
  return {
    clientEmail,
    privateKey,
    privateKeyId: text_('private_key_id'),
    tokenUri: secureBaseUrl(text_('token_uri') ?? DEFAULT_TOKEN_URI, 'serviceAccountKey.token_uri'),
  };
}

/** Google's token endpoint says `{ error, error_description }` (RFC 6749). */
const GOOGLE_SIGN_IN: HttpService = {
  name: 'Google sign-in',
  errorText(body) {
    try {
      const parsed = JSON.parse(body) as { error?: string; error_description?: string };
      if (!parsed.error) return undefined;
      return parsed.error_description ? wordsWithCode(parsed.error_description, parsed.error) : parsed.error;
    } catch {
      return undefined;
    }
  },
  // A key refused (invalid_grant, invalid_client) comes back as 400 or 401: a credential problem either way.
  errorKind: (status) => (status === 400 || status === 401 ? 'auth' : undefined),
};

/** The JSON API says `{ error: { code, message, errors: [ { reason } ] } }`. */
const GCS: HttpService = {
  name: 'Google Cloud Storage',
  errorText(body) {
    try {
      const parsed = JSON.parse(body) as { error?: { message?: string; errors?: Array<{ reason?: string }> } };
      const message = parsed.error?.message;
      if (!message) return undefined;
      return wordsWithCode(message, parsed.error?.errors?.[0]?.reason);
    } catch {
      return undefined;
    }
  },
};

interface AccessToken {
  value: string;
  expiresAt: number;
}

/**
 * Access tokens kept across calls and connector instances, so that each table read or listing
 * does not sign in again (Google limits how often a key may be exchanged). A token is kept for one
 * company and one credential: its key holds the company, the token URL, the key's email, id and
 * scope, and a digest of the private key itself — an email and key id are not secret (they appear
 * in IAM listings and in every JWT's header), so a company that typed another's with a key of its
 * own must get a refusal from Google, not the other's token. Only tokens are kept, never a failure:
 * a refused key is asked about again on the next call. Callers that need the same token at once
 * share one exchange.
 */
class TokenCache {
  private readonly tokens = new Map<string, AccessToken>();
  private readonly granting = new Map<string, Promise<AccessToken>>();

  constructor(private readonly maxEntries: number) {}

  keyOf(companyId: string, key: ServiceAccountKey): string {
    const parts = [companyId, key.tokenUri.href, key.clientEmail, key.privateKeyId ?? '', GCS_SCOPE, key.privateKey];
    return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
  }

  /** A token good for at least TOKEN_MARGIN_MS more, from the cache or from `grant` (one at a time per key). */
  async token(cacheKey: string, now: () => number, grant: () => Promise<AccessToken>): Promise<AccessToken> {
    const kept = this.tokens.get(cacheKey);
    if (kept && kept.expiresAt - TOKEN_MARGIN_MS > now()) {
      // Used again: the last to be dropped when the cache is full.
      this.tokens.delete(cacheKey);
      this.tokens.set(cacheKey, kept);
      return kept;
    }
    let pending = this.granting.get(cacheKey);
    if (!pending) {
      pending = grant()
        .then((token) => {
          this.keep(cacheKey, token, now());
          return token;
        })
        .finally(() => this.granting.delete(cacheKey));
      this.granting.set(cacheKey, pending);
    }
    return pending;
  }

  /** Drops `token` when it is still the one kept for the key (another call may have replaced it already). */
  forget(cacheKey: string, token: AccessToken): void {
    if (this.tokens.get(cacheKey) === token) this.tokens.delete(cacheKey);
  }

  private keep(cacheKey: string, token: AccessToken, at: number): void {
    this.tokens.delete(cacheKey);
    this.tokens.set(cacheKey, token);
    if (this.tokens.size <= this.maxEntries) return;
    for (const [key, held] of this.tokens) if (held.expiresAt - TOKEN_MARGIN_MS <= at) this.tokens.delete(key);
    // Still full: the token used longest ago goes (a Map iterates in the order entries were set).
    for (const key of this.tokens.keys()) {
      if (this.tokens.size <= this.maxEntries) break;
      this.tokens.delete(key);
    }
  }
}

/** Tokens kept at most: one per credential in use, far more than a server's companies use at once. */
const TOKEN_CACHE_MAX = 1000;
const accessTokens = new TokenCache(TOKEN_CACHE_MAX);

interface GcsObject {
  name?: string;
  size?: string;
  generation?: string;
}

/** objects.list answers at most 1,000 objects a page. */
const PAGE_SIZE = 1000;

class GcsClient implements ObjectStoreClient {
  readonly place: StorePlace;
  readonly pageSize = PAGE_SIZE;

  constructor(
    private readonly settings: GcsSettings,
    /** Where this credential's token is kept in `accessTokens`. */
    private readonly tokenKey: string,
    private readonly http: HttpOptions,
    private readonly now: () => number,
  ) {
    this.place = { noun: 'bucket', name: settings.bucket, item: 'object', prefix: settings.prefix };
  }

  async listPage(maxKeys: number, token?: string): Promise<ObjectPage> {
    const page = await this.authorized((headers) =>
      callServiceJson<{ items?: GcsObject[]; nextPageToken?: string }>(
        GCS,
        this.url('', {
          prefix: this.settings.prefix || undefined,
          maxResults: maxKeys,
          pageToken: token,
          fields: 'items(name,size),nextPageToken',
        }),
        { headers },
        this.http,
      ),
    );
    return {
      objects: (page.items ?? [])
        .filter((item) => typeof item.name === 'string')
        .map((item) => ({ key: item.name!, size: Number(item.size ?? 0) })),
      nextToken: page.nextPageToken || undefined,
    };
  }

  async head(key: string): Promise<ObjectHead> {
    const object = await this.authorized((headers) =>
      callServiceJson<GcsObject>(GCS, this.url(key, { fields: 'size,generation' }), { headers }, this.http),
    );
    const size = Number(object.size ?? 0);
    return { size, version: String(object.generation ?? `size ${size}`) };
  }

  async read(key: string, head: ObjectHead, range?: readonly [number, number]): Promise<ObjectRead> {
    const generation = /^\d+$/.test(head.version) ? head.version : undefined;
    const answer = await this.authorized((authorization) => {
      const headers: Record<string, string> = { ...authorization, accept: '*/*' };
      if (range) headers.range = `bytes=${range[0]}-${range[1] - 1}`;
      return openServiceStream(GCS, this.url(key, { alt: 'media', generation }), { headers }, this.http);
    });
    return { body: answer.body, partial: answer.status === 206 };
  }

  /** An object's address names it whole, slashes escaped, as the JSON API wants. */
  private url(key: string, query: Record<string, string | number | undefined>): URL {
    const object = key === '' ? '' : `/${encodeURIComponent(key)}`;
    return serviceUrl(this.settings.endpoint, `/storage/v1/b/${encodeURIComponent(this.settings.bucket)}/o${object}`, query);
  }

  /**
   * A call with the kept access token. A token Google refuses (401: revoked, or its key disabled
   * and enabled again before it expired) is forgotten, and the call made once more with a new one.
   */
  private async authorized<T>(call: (headers: Record<string, string>) => Promise<T>): Promise<T> {
    const token = await accessTokens.token(this.tokenKey, this.now, () => this.grant());
    try {
      return await call({ authorization: `Bearer ${token.value}` });
    } catch (error) {
      if (!(error instanceof ServiceAnswerError) || error.status !== 401) throw error;
      accessTokens.forget(this.tokenKey, token);
      const fresh = await accessTokens.token(this.tokenKey, this.now, () => this.grant());
      return call({ authorization: `Bearer ${fresh.value}` });
    }
  }

  /** The JWT bearer grant: a JWT signed with the key, exchanged at its token_uri for an access token. */
  private async grant(): Promise<AccessToken> {
    const { key } = this.settings;
    let signingKey: CryptoKey;
    try {
      signingKey = await importPKCS8(key.privateKey, 'RS256');
    } catch (error) {
      throw new ConnectorError(
        `settings.serviceAccountKey: its private_key is not an RSA private key in PEM form (${(error as Error).message})`,
        'invalid',
      );
    }
    const assertion = await new SignJWT({ scope: GCS_SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(key.privateKeyId ? { kid: key.privateKeyId } : {}) })
      .setIssuer(key.clientEmail)
      .setAudience(key.tokenUri.href)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(signingKey);
    const requested = this.now();
    const answer = await callService(
      GOOGLE_SIGN_IN,
      key.tokenUri,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion }).toString(),
        // Each exchange only mints a token: one sent again after a 5xx does no harm.
        idempotent: true,
      },
      this.http,
    );
    let token: { access_token?: unknown; expires_in?: unknown };
    try {
      token = JSON.parse(answer.text) as typeof token;
    } catch {
      token = {};
    }
    if (typeof token.access_token !== 'string' || token.access_token === '') {
      throw new ConnectorError(`Google sign-in answered ${key.tokenUri.host} without an access token`, 'auth');
    }
    const lifetimeSeconds = Number(token.expires_in);
    return {
      value: token.access_token,
      expiresAt: requested + (Number.isFinite(lifetimeSeconds) && lifetimeSeconds > 0 ? lifetimeSeconds : 3600) * 1000,
    };
  }
}
