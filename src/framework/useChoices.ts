import { useQuery } from '@tanstack/react-query';
import { useCanAccess, useDataProvider, useResourceContext } from 'react-admin';
import type { DeclaredDataProvider } from '../../providers/dataProvider';
import { FILTER_PROPS_FRESH_MS, filterPropsKey } from './list/firstPage';
import type { Choice, ChoicesSource } from './types';

/** The filter bar's choices of a list (`…/filter/props`), loaded once and shared by its inputs. */
export function useFilterProps(enabled = true) {
  const resource = useResourceContext();
  const dataProvider = useDataProvider<DeclaredDataProvider>();
  const { canAccess } = useCanAccess({ resource, action: 'list', enabled });
  return useQuery({
    queryKey: filterPropsKey(resource!),
    queryFn: () => dataProvider.getFilterProps(resource!),
    enabled: enabled && Boolean(resource) && canAccess === true,
    staleTime: FILTER_PROPS_FRESH_MS,
    retry: false,
  });
}

function isStatic(source: ChoicesSource): source is readonly Choice[] {
  return Array.isArray(source);
}

/** Choices of a select, wherever the declaration says they come from. */
export function useChoices(source: ChoicesSource | undefined): { choices: Choice[] | undefined; isPending: boolean } {
  const dataProvider = useDataProvider<DeclaredDataProvider>();
  const fromProps = source && !isStatic(source) && 'filterProps' in source ? source.filterProps : null;
  const fromRoute = source && !isStatic(source) && 'route' in source ? source : null;
  const props = useFilterProps(fromProps !== null);
  const routed = useQuery({
    queryKey: ['choices', fromRoute?.route, fromRoute?.optionText],
    queryFn: () => dataProvider.getChoices(fromRoute!.route, fromRoute!.optionText),
    enabled: fromRoute !== null,
    staleTime: 5 * 60_000,
    retry: false,
  });
  if (!source) return { choices: undefined, isPending: false };
  if (isStatic(source)) return { choices: [...source], isPending: false };
  if (fromProps !== null) return { choices: props.data?.[fromProps] ?? (props.isPending ? undefined : []), isPending: props.isPending };
  return { choices: routed.data ?? (routed.isPending ? undefined : []), isPending: routed.isPending };
}
