import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../platform/context';
import type { Db } from '../db/client';
import { companies, roles, users } from '../db/schema';
import { buildNavItems, type NavItems } from './pages-catalogue';
import type { SessionRow } from './session-service';
import { signAccessToken, type SessionStage } from './tokens';

export interface Impersonator {
  id: string;
  email: string;
  name: string;
}

/** What sign-in, OTP verification, enrolment and impersonation answer; the console keeps it as `user`. */
export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  companyId: string;
  companyName: string;
  companyHostname: string;
  roleId: string;
  roleName: string;
  isAdmin: boolean;
  accessToken: string;
  token: string;
  ga_user_id: string;
  auth: boolean;
  requireOTP: boolean;
  setupOTP: boolean;
  otpEnabled: boolean;
  expiresAt: string;
  navItems: NavItems;
  impersonator: Impersonator | null;
}

const NO_NAVIGATION: NavItems = { userNavItemJson: { items: [] } };

export function displayName(person: { firstName: string; lastName: string; email: string }): string {
  return `${person.firstName} ${person.lastName}`.trim() || person.email;
}

/**
 * Builds the session user of an open session: signs a token naming the session and, once the
 * sign-in is complete, the role's navigation. A half-finished sign-in gets no navigation: its
 * token opens nothing but the next step.
 */
export async function sessionUserOf(ctx: AppContext, session: SessionRow): Promise<SessionUser> {
  const { db } = ctx;
  const [row] = await db
    .select({ user: users, roleName: roles.name, isAdmin: roles.isAdmin, companyName: companies.name, companyHostname: companies.hostname })
    .from(users)
    .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.companyId, session.companyId), eq(users.id, session.userId)));
  if (!row) throw new Error(`Session ${session.id} names a user that does not exist`);

  const stage = session.stage as SessionStage;
  const full = stage === 'full';
  const [token, navItems, impersonator] = await Promise.all([
    signAccessToken(ctx.secrets.tokenKey, { sid: session.id, sub: session.userId, cid: session.companyId, stg: stage }, session.expiresAt),
    full ? buildNavItems(db, session.companyId, row.user.roleId) : NO_NAVIGATION,
    session.impersonatorUserId ? findImpersonator(db, session.companyId, session.impersonatorUserId) : null,
  ]);
  const { user } = row;
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    companyId: user.companyId,
    companyName: row.companyName,
    companyHostname: row.companyHostname,
    roleId: user.roleId,
    roleName: row.roleName,
    isAdmin: row.isAdmin,
    accessToken: token,
    token,
    ga_user_id: user.gaUserId,
    auth: full,
    requireOTP: stage === 'otp',
    setupOTP: stage === 'otp_setup',
    otpEnabled: user.otpEnabled,
    expiresAt: session.expiresAt.toISOString(),
    navItems,
    impersonator,
  };
}

/** The admin behind an impersonation session, as the console shows them. */
export async function findImpersonator(db: Db, companyId: string, userId: string): Promise<Impersonator | null> {
  const [admin] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  return admin ? { id: admin.id, email: admin.email, name: displayName(admin) } : null;
}
