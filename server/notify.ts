import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from './db/client';
import { notifications, roles, users } from './db/schema';
import { announce } from './live/signals';

export interface NewNotification {
  companyId: string;
  /** Recipients: user ids, or every active admin of the company. */
  to: string[] | 'admins';
  /** 'invitation_accepted', 'role_changed', 'job_failed', ... */
  type: string;
  title: string;
  message?: string;
  /** A console path the notification opens, e.g. `/users/<id>/show`. */
  link?: string | null;
  /** Who caused it; null for the system. */
  createdBy?: string | null;
}

/** Creates in-app notifications (call it inside the transaction of the event it tells of). */
export async function notify(db: Db, event: NewNotification): Promise<void> {
  let recipients = event.to;
  if (recipients === 'admins') {
    const admins = await db
      .select({ id: users.id })
      .from(users)
      .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
      .where(and(eq(users.companyId, event.companyId), eq(roles.isAdmin, true), eq(users.status, 'active'), eq(users.isActive, true)));
    recipients = admins.map((a) => a.id);
  } else if (recipients.length > 0) {
    // Only users of this company: an id from elsewhere is dropped, never notified.
    const known = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.companyId, event.companyId), inArray(users.id, recipients)));
    recipients = known.map((u) => u.id);
  }
  if (recipients.length === 0) return;
  await db.insert(notifications).values(
    recipients.map((userId) => ({
      companyId: event.companyId,
      userId,
      type: event.type,
      title: event.title,
      message: event.message ?? '',
      link: event.link ?? null,
      createdBy: event.createdBy ?? null,
    })),
  );
  // The recipients' bells ring at the commit (server/live).
  await announce(db, { kind: 'notification', companyId: event.companyId, userIds: recipients });
}
