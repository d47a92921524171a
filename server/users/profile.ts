import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { ownProfileSchema } from '../../common/schemas/users';
import { recordAudit } from '../audit';
import type { AuthContext } from '../auth/guard';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { badRequest, notFound, unauthorized } from '../http/errors';
import { readProfileForm } from './avatar';
import { assertUsernameFree, changedFields, describeIssues, uniqueConflict } from './rules';

/** How a picture appears in an audit entry: its type and size, never its bytes. */
const pictureOf = (type: string | null, bytes: number | null) => (type ? `${type}, ${bytes ?? 0} bytes` : null);

/**
 * PUT /user/profile: the caller's own names, username, phone and picture, from a JSON body or a
 * multipart form. Nothing is written unless every field and the picture pass.
 */
export async function updateOwnProfile(db: Db, request: FastifyRequest, auth: AuthContext): Promise<void> {
  const form = await readProfileForm(request);
  const parsed = ownProfileSchema.safeParse(form.fields);
  if (!parsed.success) throw badRequest(describeIssues(parsed.error));
  const edit = parsed.data;
  if (form.avatar && edit.removeAvatar) throw badRequest('removeAvatar: cannot be true while a new picture is sent');

  const [user] = await db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      username: users.username,
      phone: users.phone,
      avatarType: users.avatarType,
      avatarBytes: sql<number | null>`octet_length(${users.avatar})`.mapWith((n) => (n === null ? null : Number(n))),
    })
    .from(users)
    .where(and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId)));
  if (!user) throw unauthorized();
  if (edit.username) await assertUsernameFree(db, auth.companyId, edit.username, auth.userId);

  const changes = changedFields(user, {
    firstName: edit.firstName,
    lastName: edit.lastName,
    username: edit.username,
    phone: edit.phone,
  }) ?? {
    before: {},
    after: {},
  };
  const update: Partial<typeof users.$inferInsert> = { ...(changes.after as Partial<typeof users.$inferInsert>) };
  const oldPicture = pictureOf(user.avatarType, user.avatarBytes);
  if (form.avatar) {
    update.avatar = form.avatar.bytes;
    update.avatarType = form.avatar.type;
    changes.before.avatar = oldPicture;
    changes.after.avatar = pictureOf(form.avatar.type, form.avatar.bytes.length);
  } else if (edit.removeAvatar && user.avatarType) {
    update.avatar = null;
    update.avatarType = null;
    changes.before.avatar = oldPicture;
    changes.after.avatar = null;
  }
  if (Object.keys(update).length === 0) return;

  try {
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ ...update, updatedAt: new Date() })
        .where(and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId)));
      await recordAudit(tx, request, {
        companyId: auth.companyId,
        model: 'user',
        operation: 'update_profile',
        recordId: auth.userId,
        changes,
      });
    });
  } catch (err) {
    throw uniqueConflict(err) ?? err;
  }
}

export interface Avatar {
  bytes: Buffer;
  type: string;
}

/** A user's picture, for any signed-in user of the same company; 404 when there is none. */
export async function avatarOf(db: Db, companyId: string, userId: string): Promise<Avatar> {
  const [row] = await db
    .select({ bytes: users.avatar, type: users.avatarType })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  if (!row?.bytes || !row.type) throw notFound('Avatar');
  return { bytes: row.bytes, type: row.type };
}
