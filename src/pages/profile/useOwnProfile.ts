import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { getOwnProfile, type OwnProfile } from '../../../resources/users/api';
import type { User } from '../../../resources/users/types';

export const OWN_PROFILE_KEY = ['users', 'ownProfile'];

/** The signed-in user's own record (`GET /user/profile`), and a way to lay a saved answer over it. */
export function useOwnProfile() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: OWN_PROFILE_KEY, queryFn: ({ signal }) => getOwnProfile(signal), retry: false });
  const replace = useCallback(
    (change: Partial<User>) =>
      queryClient.setQueryData<OwnProfile>(OWN_PROFILE_KEY, (current) =>
        current ? { ...current, data: { ...current.data, ...change } } : current,
      ),
    [queryClient],
  );
  return { ...query, replace };
}
