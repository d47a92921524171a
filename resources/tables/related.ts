import { defineRelatedList } from '../../src/framework/related/declaration';

/** What narrows a table's rules: a search text, a kind of check and a check (docs/api/tables.md). */
export interface RuleFilter {
  search?: string;
  functionType?: string;
  functionName?: string;
}

/** A page of a table's data dictionary, by position. */
export const DICTIONARY_PAGE = '/tables/dataDictionary/tableId/{id}/{offset}/{limit}';

/**
 * A table's data dictionary, by position: `GET /tables/dataDictionary/tableId/{id}/…`, or the
 * search route with a search text. Its entries are named by their column.
 */
export const dictionaryList = defineRelatedList<{ search?: string }>({
  name: 'tables.dictionary',
  idField: 'name',
  call: ({ search }) =>
    search
      ? { route: '/tables/dataDictionary/search/tableId/{id}/{offset}/{limit}?searchText={search}', search }
      : { route: DICTIONARY_PAGE },
});

/**
 * A table's data-quality rules: the filter route when a kind is chosen (with the search text in
 * its body), the search route for a search alone, else the plain list.
 */
export const rulesList = defineRelatedList<RuleFilter>({
  name: 'tables.rules',
  call: ({ search, functionType, functionName }) => {
    if (functionType || functionName) {
      return {
        route: { path: '/tables/dataQuality/filter/tableId/{id}/{offset}/{limit}', method: 'POST' },
        body: {
          ...(functionType ? { functionType } : {}),
          ...(functionName ? { functionName } : {}),
          ...(search ? { searchText: search } : {}),
        },
      };
    }
    if (search) return { route: '/tables/dataQuality/search/tableId/{id}/{offset}/{limit}?searchText={search}', search };
    return { route: '/table/dataQuality/{id}/{offset}/{limit}' };
  },
});
