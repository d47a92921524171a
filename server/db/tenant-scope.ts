import { AsyncLocalStorage } from 'node:async_hooks';
import { NO_COMPANY } from './schema';

/**
 * Whose rows the server's statements may see, carried along every call without being passed.
 *
 * On PostgreSQL every table with a company_id (and companies itself) has a row-level security
 * policy (migration 0011), and the server's queries run as a role that cannot bypass it
 * (server-role.ts). The connection tells PostgreSQL the scope of the code that runs each
 * statement (scoped-connection.ts), so a statement that forgets its company condition still
 * reads and writes only that company's rows:
 * - a company: a request of one of its users or API keys, or work done for it;
 * - the system: the few paths that must look across companies before they know one (signing in
 *   by host name, an API key's lookup, sweeps of expired sessions and stale runs, the weekly
 *   reports, provisioning), each an explicit `asSystem` with its reason;
 * - nothing: code that never said whose it is sees no tenant row at all.
 *
 * The embedded database runs as its superuser, where policies do not apply: there the same code
 * runs and the application's own company conditions are the wall (tests/server/tenant-isolation).
 */
export type TenantScope = { kind: 'company'; companyId: string } | { kind: 'system'; reason: string } | { kind: 'none' };

const storage = new AsyncLocalStorage<TenantScope>();
const NONE: TenantScope = { kind: 'none' };

/** The scope of the code running now; nothing unless a caller said. */
export function currentScope(): TenantScope {
  return storage.getStore() ?? NONE;
}

/** Runs `work` (and everything it starts) as one company's. */
export function withTenant<T>(companyId: string, work: () => T): T {
  return storage.run({ kind: 'company', companyId }, work);
}

/**
 * Runs `work` across companies. Only for paths that cannot know the company before they read
 * (say which in `reason`); anything that knows it uses withTenant.
 */
export function asSystem<T>(reason: string, work: () => T): T {
  return storage.run({ kind: 'system', reason }, work);
}

/**
 * Runs the rest of a path that had to look across companies as the company it found: once a
 * sign-in, a mailed link or a sign-up knows its company, what it writes is that company's alone,
 * for row-level security and for the answers every server keeps (table-watch.ts), which would
 * otherwise take a write across companies as touching every company. When it found none, its
 * rows (a refused sign-in's event, a mail of the instance itself) are those of no company
 * (NO_COMPANY). Only ever narrows: in a company's scope or none, `work` runs in the scope it has.
 */
export function asFoundCompany<T>(companyId: string | null | undefined, work: () => T): T {
  if (currentScope().kind !== 'system') return work();
  return withTenant(companyId ?? NO_COMPANY, work);
}

/** Runs `work` with no scope: it sees no tenant rows (a request before its caller is known). */
export function withoutTenant<T>(work: () => T): T {
  return storage.run(NONE, work);
}

/**
 * What a connection is set to before a statement of this scope: the company the policies read
 * (`app.company_id`), and whether the statement runs as the role that bypasses them (system work;
 * server-role.ts).
 */
export function scopeSettings(scope: TenantScope = currentScope()): { companyId: string; system: boolean } {
  return {
    companyId: scope.kind === 'company' ? scope.companyId : '',
    system: scope.kind === 'system',
  };
}
