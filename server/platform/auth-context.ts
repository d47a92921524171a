import type { SessionStage } from '../auth/tokens';

/** Who is calling: set on every request by the guard (server/auth/guard.ts) before its handler runs. */
export interface AuthContext {
  /** The session row; empty for a call made with an API key. */
  sessionId: string;
  /** Set when the call is made with an API key rather than a session token. */
  apiKeyId?: string | null;
  userId: string;
  companyId: string;
  roleId: string;
  email: string;
  isAdmin: boolean;
  stage: SessionStage;
  /** The admin behind an impersonation session, if this is one. */
  impersonatorUserId: string | null;
  impersonatorSessionId: string | null;
}
