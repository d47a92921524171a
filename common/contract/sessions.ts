import { z } from 'zod';

/** How a session ended (`endReason`); null while it is open or when it only expired. */
export const SESSION_END_REASONS = ['logout', 'ended_by_admin', 'password_changed', 'user_deactivated', 'replaced'] as const;

/** A session as `GET /sessions/…` and the filter answer it (docs/api/sessions.md). */
export const sessionRow = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string().nullable(),
  userName: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** How far the sign-in got: fully in, or waiting for a code or its set-up. */
  stage: z.enum(['full', 'otp', 'otp_setup']),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
  expiresAt: z.string(),
  endedAt: z.string().nullable(),
  endReason: z.string().nullable(),
  /** Over: ended, or expired without anyone ending it (computed by the server). */
  isDeleted: z.boolean(),
  /** Signed in now: a full session neither ended nor expired. */
  active: z.boolean(),
  impersonatorUserId: z.string().nullable().optional(),
  impersonatorEmail: z.string().nullable(),
  /** The caller's own session. */
  current: z.boolean(),
});

export type Session = z.infer<typeof sessionRow>;
