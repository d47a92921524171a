import type { TablePaginationProps } from '@mui/material';
import { useTranslate } from 'react-admin';

type PaginationTexts = Pick<TablePaginationProps, 'labelRowsPerPage' | 'labelDisplayedRows' | 'getItemAriaLabel'>;

/**
 * The texts of a MUI TablePagination from the catalogue, for the tables the console draws itself
 * (reports, run history, failing rows): MUI's own are English whatever the language.
 */
export function usePaginationTexts(): PaginationTexts {
  const translate = useTranslate();
  return {
    labelRowsPerPage: translate('app.list.rows_per_page'),
    labelDisplayedRows: ({ from, to, count }) => {
      if (count === 0) return translate('app.list.empty_range');
      if (count < 0) return translate('app.list.range_open', { from, to });
      return translate('app.list.range', { from, to, total: count.toLocaleString('en') });
    },
    getItemAriaLabel: (type) => translate(`ra.navigation.${type}`),
  };
}
