import { and, count, eq, gt, gte, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { accessEvents, sessions, systemAudits, users } from '../db/schema';
import type { Card } from '../http/lists';
import { statusIs } from './rows';

/** A console link to the users list with a filter applied (react-admin reads `filter` from the query). */
const usersFiltered = (filter: Record<string, unknown>) => `/users?filter=${encodeURIComponent(JSON.stringify(filter))}`;

/** GET /users/cards: the company's users by status, and how many have two-factor on. */
export async function userCards(db: Db, companyId: string): Promise<Card[]> {
  const [row] = await db
    .select({
      total: count(),
      active: sql<number>`count(*) filter (where ${statusIs('active')})`.mapWith(Number),
      invited: sql<number>`count(*) filter (where ${statusIs('invited')})`.mapWith(Number),
      inactive: sql<number>`count(*) filter (where ${statusIs('inactive')})`.mapWith(Number),
      twoFactor: sql<number>`count(*) filter (where ${users.otpEnabled})`.mapWith(Number),
    })
    .from(users)
    .where(eq(users.companyId, companyId));
  return [
    { key: 'total', label: 'Users', value: row.total, link: '/users' },
    { key: 'active', label: 'Active', value: row.active, link: usersFiltered({ status: ['active'] }) },
    { key: 'invited', label: 'Invitations pending', value: row.invited, link: usersFiltered({ status: ['invited'] }) },
    { key: 'inactive', label: 'Inactive', value: row.inactive, link: usersFiltered({ status: ['inactive'] }) },
    { key: 'twoFactor', label: 'Two-factor on', value: row.twoFactor },
  ];
}

/** Sign-in attempts that did not let the user in: a wrong password, or one refused while blocked. */
const FAILED_SIGNIN_STATUSES = ['failure', 'blocked'];

/**
 * GET /user/profile/cards/{userId}/{days}: one user's activity over the last `days` days, and the
 * sessions open now.
 */
export async function profileCards(db: Db, companyId: string, userId: string, days: number): Promise<Card[]> {
  const now = new Date();
  const since = new Date(now.getTime() - days * 86_400_000);
  const [[signins], [changes], [open]] = await Promise.all([
    db
      .select({
        succeeded: sql<number>`count(*) filter (where ${accessEvents.status} = 'success')`.mapWith(Number),
        failed: sql<number>`count(*) filter (where ${inArray(accessEvents.status, FAILED_SIGNIN_STATUSES)})`.mapWith(Number),
      })
      .from(accessEvents)
      .where(
        and(
          eq(accessEvents.companyId, companyId),
          eq(accessEvents.userId, userId),
          eq(accessEvents.event, 'signin'),
          gte(accessEvents.createdAt, since),
        ),
      ),
    db
      .select({ n: count() })
      .from(systemAudits)
      .where(and(eq(systemAudits.companyId, companyId), eq(systemAudits.userId, userId), gte(systemAudits.createdAt, since))),
    db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.companyId, companyId), eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, now))),
  ]);
  const period = days === 1 ? 'in the last day' : `in the last ${days} days`;
  return [
    { key: 'signins', label: `Sign-ins ${period}`, value: signins.succeeded },
    { key: 'failedSignins', label: `Failed sign-ins ${period}`, value: signins.failed },
    { key: 'changes', label: `Changes made ${period}`, value: changes.n },
    { key: 'openSessions', label: 'Open sessions', value: open.n },
  ];
}
