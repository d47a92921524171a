import { useQuery } from '@tanstack/react-query';
import { List, useDataProvider } from 'react-admin';
import type { DeclaredDataProvider } from '../../providers/dataProvider';
import { useDeclaration } from '../../src/framework/DeclarationContext';
import { defaultSortOf } from '../../src/framework/declaration';
import { ConsolePagination } from '../../src/framework/list/ConsolePagination';
import { DeclaredDataTable, DeclaredListActions } from '../../src/framework/list/DeclaredList';
import { useFilterInputs } from '../../src/framework/list/filterInputs';
import { RowStatesProvider } from '../../src/framework/list/RowStates';

/**
 * The filter choices (`GET /notification/options`), read for everyone: the server answers each
 * caller with what they may see. Same query as the filter inputs', which wait for the
 * `notifications` read policy that only lets one see everyone's.
 */
function useOptionsForEveryone() {
  const dataProvider = useDataProvider<DeclaredDataProvider>();
  useQuery({
    queryKey: ['notifications', 'filterProps'],
    queryFn: () => dataProvider.getFilterProps('notifications'),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/**
 * The declared list, open to every signed-in user: everyone reads their own notifications; the
 * `notifications` policy only widens the list to everyone's, which the server decides.
 */
export default function NotificationsList() {
  const declaration = useDeclaration();
  const filters = useFilterInputs(declaration);
  useOptionsForEveryone();
  return (
    <RowStatesProvider>
      <List
        disableAuthentication
        perPage={declaration.list?.perPage ?? 10}
        sort={defaultSortOf(declaration)}
        filters={filters}
        actions={<DeclaredListActions />}
        pagination={<ConsolePagination />}
        exporter={false}
        empty={false}
      >
        <DeclaredDataTable />
      </List>
    </RowStatesProvider>
  );
}
