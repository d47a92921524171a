import type { DataProvider, GetListResult, GetManyReferenceParams, Identifier } from 'react-admin';
import { isPagedRoute, routeSpec, type Route, type RouteSpec } from '../../../common/contract/routes';
import { fillPath, listResult, pageToOffset, readList } from '../../../providers/dataProvider';
import { apiRequest } from '../../../providers/http';
import type { AnyResourceDeclaration } from '../types';
import type { AnyRelatedList, RelatedCall } from './declaration';

function callOf(list: AnyRelatedList, filter: Record<string, unknown>): RelatedCall {
  return typeof list.call === 'function' ? list.call(filter) : { route: list.call };
}

/**
 * A page of a related list: the route filled with the record's id, the page as offset and
 * limit (in the path, the query or the body), the answer `{ message, data: { rows, count,
 * countExact } }`, `{ data: [...] }` or a bare array. An unpaged answer is paged here.
 */
export async function relatedPage(call: RelatedCall, params: GetManyReferenceParams, idField?: string): Promise<GetListResult> {
  const spec: RouteSpec & { method: string } = routeSpec(call.route, 'list');
  const { offset, limit } = pageToOffset(params.pagination);
  const paged = isPagedRoute(call.route) || spec.pagingInBody === true;
  const path = fillPath(spec.path, { id: params.id, offset, limit, ...(call.search !== undefined ? { search: call.search } : {}) });
  const method = spec.method === 'GET' && call.body ? 'POST' : spec.method;
  const body = method === 'GET' ? undefined : { ...spec.body, ...call.body, ...(spec.pagingInBody ? { offset, limit } : {}) };
  const answer = readList(await apiRequest(path, { method: method as never, body, signal: params.signal }));
  if (idField) answer.rows = answer.rows.map((row) => ({ ...row, id: row[idField] as Identifier }));
  if (!paged) {
    return { data: answer.rows.slice(offset, offset + limit), total: answer.rows.length };
  }
  return listResult(answer, offset, limit);
}

/**
 * The dataProvider with the declarations' related lists: getManyReference of a related list
 * answers from its calls, and a resource's related route that answers every row at once is
 * paged here; anything else is the provider's own.
 */
export function withRelatedLists<P extends DataProvider>(provider: P, declarations: readonly AnyResourceDeclaration[]): P {
  const lists = new Map<string, AnyRelatedList>();
  for (const declaration of declarations) {
    for (const list of declaration.relatedLists ?? []) lists.set(list.name, list);
  }
  const unpaged = (resource: string, target: string): Route | undefined => {
    const route = declarations.find((declaration) => declaration.name === resource)?.related?.[target];
    return route && !isPagedRoute(route) ? route : undefined;
  };
  return {
    ...provider,
    getManyReference(resource: string, params: GetManyReferenceParams) {
      const list = lists.get(resource);
      if (list) return relatedPage(callOf(list, (params.filter ?? {}) as Record<string, unknown>), params, list.idField) as never;
      const route = unpaged(resource, params.target);
      if (route) return relatedPage({ route }, params) as never;
      return provider.getManyReference(resource, params);
    },
  };
}
