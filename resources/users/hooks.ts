import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { usernameProblem } from '../../common/schemas/users';
import { fetchAvatar, isUsernameFree, usernameCheckKey, type UsernameCheck } from './api';

/** How long a typed username waits before it is checked: one call per pause, not per key. */
export const USERNAME_CHECK_DELAY_MS = 400;
const CHECK_FRESH_MS = 15_000;

export function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

export type UsernameState =
  | { state: 'idle' }
  | { state: 'invalid'; message: string }
  | { state: 'checking' }
  | { state: 'available' }
  | { state: 'taken' }
  | { state: 'unknown' };

function normalised(value: unknown): string {
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/**
 * The live availability of a username as it is typed: the shared rules first (no call for a
 * name the server would refuse anyway), then the server, once the typing pauses. The account's
 * own name (`current`) needs no check.
 */
export function useUsernameAvailability(value: unknown, check: UsernameCheck, current?: string | null): UsernameState {
  const typed = normalised(value);
  const settled = useDebounced(typed, USERNAME_CHECK_DELAY_MS);
  const problem = typed ? usernameProblem(typed) : null;
  const wanted = settled !== '' && settled === typed && !problem && settled !== normalised(current);
  const query = useQuery({
    queryKey: usernameCheckKey(settled, check),
    queryFn: ({ signal }) => isUsernameFree(settled, check, signal),
    enabled: wanted,
    staleTime: CHECK_FRESH_MS,
    retry: false,
  });
  if (!typed || typed === normalised(current)) return { state: 'idle' };
  if (problem) return { state: 'invalid', message: problem };
  if (!wanted || query.isFetching) return { state: 'checking' };
  if (query.isError) return { state: 'unknown' };
  return query.data ? { state: 'available' } : { state: 'taken' };
}

/**
 * The same check as a promise, for a form's validation on submit: it reuses the answer the live
 * hint already has.
 */
export function useUsernameFreeCheck(check: UsernameCheck): (name: string) => Promise<boolean> {
  const queryClient = useQueryClient();
  const kind = check.kind;
  const userId = check.kind === 'account' ? check.userId : undefined;
  return useCallback(
    (name: string) => {
      const stable: UsernameCheck = kind === 'account' ? { kind, userId } : { kind };
      return queryClient.fetchQuery({
        queryKey: usernameCheckKey(name, stable),
        queryFn: ({ signal }) => isUsernameFree(name, stable, signal),
        staleTime: CHECK_FRESH_MS,
        retry: false,
      });
    },
    [queryClient, kind, userId],
  );
}

/**
 * A user's picture as an object URL (revoked when it changes or the view goes), or null while
 * loading, when there is none, or when it cannot be read. `version` forces a fresh read after an upload.
 */
export function useAvatarUrl(userId: string | undefined, hasAvatar: boolean | undefined, version = 0): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!userId || hasAvatar === false) return undefined;
    const controller = new AbortController();
    let created: string | null = null;
    fetchAvatar(userId, controller.signal)
      .then((blob) => {
        if (!blob || controller.signal.aborted) return;
        created = URL.createObjectURL(blob);
        setUrl(created);
      })
      // A missing or unreadable picture leaves the initials in its place.
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (created) URL.revokeObjectURL(created);
    };
  }, [userId, hasAvatar, version]);
  return url;
}
