import { QueryClient, type QueryKey } from '@tanstack/react-query';
import type { ConsoleAuthProvider } from '../../providers/authProvider';
import { getAccessToken } from '../../providers/storage';

/** What a list page checks as it opens: the page, its rows' links and buttons, its toolbar. */
export const LIST_PAGE_ACTIONS = ['list', 'show', 'edit', 'create', 'delete', 'export', 'activate'] as const;

/** The result fields a component reads from react-admin's auth queries: a refetch that changes none of them renders nothing. */
const AUTH_QUERY_FIELDS = ['data', 'error', 'status'] as const;

/** react-admin's access check query: ['auth', 'canAccess', { resource, action, recordId?, … }]. */
function accessCheckOf(queryKey: QueryKey | undefined): { resource: string; action: string } | null {
  if (!Array.isArray(queryKey) || queryKey[0] !== 'auth' || queryKey[1] !== 'canAccess') return null;
  const params = queryKey[2] as { resource?: unknown; action?: unknown } | undefined;
  if (typeof params?.resource !== 'string' || typeof params.action !== 'string') return null;
  return { resource: params.resource, action: params.action };
}

/** react-admin's queries of the session itself: ['auth', 'checkAuth' | 'getPermissions', params]. */
function sessionQueryOf(queryKey: QueryKey | undefined): 'checkAuth' | 'getPermissions' | null {
  if (!Array.isArray(queryKey) || queryKey[0] !== 'auth') return null;
  return queryKey[1] === 'checkAuth' || queryKey[1] === 'getPermissions' ? queryKey[1] : null;
}

const answerKey = (resource: string, action: string) => `${resource}\u0000${action}`;

/**
 * The signed-in console's query client. react-admin asks the authProvider before it shows a page,
 * a row's buttons or a toolbar's, each time through a query of its own: a page opened for the
 * first time shows a loading state until those answers come back, and every re-check re-renders
 * whatever asked. The console's answers depend on the session's policies (loaded once per
 * session) and on the resource and action only, so:
 * - a granted access, once known in this session, answers the same question at once (the query
 *   starts with it and still checks again in the background), whichever record it is about; so
 *   does one the authProvider knows without asking (an admin's, `grantedNow`);
 * - a re-check that comes back with the same answer renders nothing;
 * - `prepareAccess` asks a list page's questions ahead, as the user heads for the page.
 * A refusal is never taken ahead: it is asked each time, as before.
 */
export class ConsoleQueryClient extends QueryClient {
  private granted = new Set<string>();
  private grantedFor: string | null = null;

  constructor(private readonly authProvider: ConsoleAuthProvider) {
    super();
    this.setQueryDefaults(['auth'], { notifyOnChangeProps: [...AUTH_QUERY_FIELDS] });
    this.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success' || event.query.state.data !== true) return;
      const check = accessCheckOf(event.query.queryKey);
      if (check) this.remember(check.resource, check.action);
    });
    const defaults = this.defaultQueryOptions.bind(this);
    this.defaultQueryOptions = ((options: Parameters<QueryClient['defaultQueryOptions']>[0]) => {
      const defaulted = defaults(options);
      if (defaulted.initialData !== undefined) return defaulted;
      // Only for a query not in the cache yet: initial data is read when a query is created.
      const fresh = Boolean(defaulted.queryHash) && !this.getQueryCache().get(defaulted.queryHash!);
      const session = sessionQueryOf(defaulted.queryKey);
      if (session && fresh) {
        const known =
          session === 'checkAuth' ? (this.authProvider.signedInNow?.() ? true : undefined) : this.authProvider.permissionsNow?.();
        return known === undefined ? defaulted : { ...defaulted, initialData: known };
      }
      const check = accessCheckOf(defaulted.queryKey);
      if (check && fresh && this.isGranted(check.resource, check.action)) {
        return { ...defaulted, initialData: true };
      }
      return defaulted;
    }) as QueryClient['defaultQueryOptions'];
  }

  /** Asks the authProvider a list page's questions now, so that the page opens with the answers. */
  prepareAccess(resource: string, actions: readonly string[] = LIST_PAGE_ACTIONS): Promise<void> {
    const canAccess = this.authProvider.canAccess;
    if (!canAccess) return Promise.resolve();
    const asked = actions
      .filter((action) => !this.isGranted(resource, action))
      .map((action) =>
        canAccess({ resource, action }).then(
          (answer) => {
            if (answer === true) this.remember(resource, action);
          },
          () => undefined,
        ),
      );
    return Promise.all(asked).then(() => undefined);
  }

  override clear(): void {
    super.clear();
    this.granted.clear();
  }

  private answersOfThisSession(): Set<string> {
    const token = getAccessToken();
    if (token !== this.grantedFor) {
      this.granted = new Set();
      this.grantedFor = token;
    }
    return this.granted;
  }

  private remember(resource: string, action: string) {
    this.answersOfThisSession().add(answerKey(resource, action));
  }

  private isGranted(resource: string, action: string): boolean {
    return this.answersOfThisSession().has(answerKey(resource, action)) || this.authProvider.grantedNow?.({ resource, action }) === true;
  }
}
