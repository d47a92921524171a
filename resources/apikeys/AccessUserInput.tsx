import { useQuery } from '@tanstack/react-query';
import { AutocompleteInput, SelectInput, useDataProvider, useTranslate } from 'react-admin';
import type { ActiveUser, ConsoleDataProvider } from '../../providers/dataProvider';

/** Long lists are easier to type into than to scroll (as the declared forms do). */
const AUTOCOMPLETE_FROM = 12;

function userText(user: ActiveUser): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return name ? `${name} (${user.email})` : user.email;
}

/**
 * Who the key acts as, among the company's active users (`GET /users/active`, which needs no
 * users policy). Admins only: anyone else makes keys that act as themselves. Empty on create
 * means the caller; a key always has someone, so the edit form offers no empty choice.
 */
export function AccessUserInput({ mode }: { mode: 'create' | 'edit' }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const users = useQuery({
    queryKey: ['apikeys', 'accessUsers'],
    queryFn: () => dataProvider.getActiveUsers(),
    staleTime: 60_000,
    retry: false,
  });
  const choices = (users.data ?? []).map((user) => ({ id: user.id, name: userText(user) }));
  const common = {
    source: 'accessUserId',
    label: 'resources.apikeys.fields.accessUserId',
    helperText: translate('resources.apikeys.helpers.accessUserId'),
    choices,
    translateChoice: false,
    isPending: users.isPending,
    isRequired: mode === 'edit',
  };
  return choices.length >= AUTOCOMPLETE_FROM ? <AutocompleteInput {...common} /> : <SelectInput {...common} emptyText="" />;
}
