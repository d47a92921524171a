import type { FastifyInstance } from 'fastify';
import { and, sql } from 'drizzle-orm';
import { z } from 'zod';
import { preferencesAnswer } from '../../../common/contract/users';
import { users } from '../../db/schema';
import { badRequest } from '../../http/errors';
import { answerRoute, type RouteBase } from '../../platform/answer-route';
import { ownRow } from './repository';

/** One preference value, as JSON, at most this big; and at most this many keys per user. */
const PREFERENCE_VALUE_MAX_BYTES = 16 * 1024;
const PREFERENCE_MAX_KEYS = 50;

const signedIn: RouteBase = { config: {}, tags: ['Users'] };
const preferenceParams = z.object({
  key: z.string().regex(/^[a-zA-Z0-9._-]{1,100}$/, 'must be 1 to 100 letters, digits, dots, underscores or hyphens'),
});
const preferenceBody = z.object({ value: z.unknown().optional() }).superRefine((body, ctx) => {
  if (body.value === undefined) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: 'is required (any JSON value)' });
  } else if (Buffer.byteLength(JSON.stringify(body.value)) > PREFERENCE_VALUE_MAX_BYTES) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: `must be at most ${PREFERENCE_VALUE_MAX_BYTES / 1024} KB of JSON` });
  }
});

/** Preferences: small JSON values the console keeps per user (table layouts, filters, ...), each user their own. */
export function registerPreferenceRoutes(app: FastifyInstance): void {
  const { db } = app.ctx;

  answerRoute(
    app,
    signedIn,
    { method: 'GET', path: '/user/preferences', summary: 'Read your console preferences', answer: preferencesAnswer },
    async ({ auth }) => {
      const [row] = await db.select({ preferences: users.preferences }).from(users).where(ownRow(auth));
      return { message: 'Preferences', data: row?.preferences ?? {} };
    },
  );

  answerRoute(
    app,
    signedIn,
    {
      method: 'GET',
      path: '/user/preferences/:key',
      summary: 'Read one of your console preferences',
      params: preferenceParams,
      answer: preferencesAnswer,
    },
    async ({ auth, params: { key } }) => {
      const [row] = await db
        .select({ value: sql<unknown>`${users.preferences} -> ${key}` })
        .from(users)
        .where(ownRow(auth));
      return { message: 'Preference', data: { [key]: row?.value ?? null } };
    },
  );

  answerRoute(
    app,
    signedIn,
    {
      method: 'PUT',
      path: '/user/preferences/:key',
      summary: 'Save one of your console preferences',
      params: preferenceParams,
      body: preferenceBody,
      answer: preferencesAnswer,
    },
    async ({ auth, params: { key }, body: { value } }) => {
      // Merged in one statement, so two tabs saving different keys at once both keep theirs.
      const updated = await db
        .update(users)
        .set({ preferences: sql`${users.preferences} || jsonb_build_object(${key}::text, ${JSON.stringify(value)}::jsonb)` })
        .where(
          and(
            ownRow(auth),
            sql`(jsonb_exists(${users.preferences}, ${key}::text) or (select count(*) from jsonb_object_keys(${users.preferences})) < ${PREFERENCE_MAX_KEYS})`,
          ),
        )
        .returning({ id: users.id });
      if (updated.length === 0) throw badRequest(`key: at most ${PREFERENCE_MAX_KEYS} different preferences can be kept per user`);
      return { message: 'Preference saved', data: { [key]: value } };
    },
  );
}
