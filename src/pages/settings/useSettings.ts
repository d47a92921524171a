import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { PASSWORD_POLICY_KEY } from '../../app/passwordPolicy';
import { getSettings, type CompanySettings, type EmailGroup, type ServiceGroup } from './api';

export const SETTINGS_KEY = ['settings', 'groups'];

/** Both groups of the company's settings, and a way to lay a saved group over them. */
export function useSettings() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: SETTINGS_KEY, queryFn: ({ signal }) => getSettings(signal), retry: false });
  const replace = useCallback(
    (group: ServiceGroup | EmailGroup) => {
      queryClient.setQueryData<CompanySettings>(SETTINGS_KEY, (current) => (current ? { ...current, [group.id]: group } : current));
      // The password forms show the rules: a new policy applies to them at once.
      if (group.id === 'service') void queryClient.invalidateQueries({ queryKey: PASSWORD_POLICY_KEY });
    },
    [queryClient],
  );
  return { ...query, replace };
}
