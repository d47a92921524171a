import DownloadIcon from '@mui/icons-material/Download';
import { useState } from 'react';
import {
  Button,
  useCanAccess,
  useDataProvider,
  useListContext,
  useResourceContext,
  useStore,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { alerts } from '../../../providers/alerts';
import { columnStoreKeys } from '../columns/columnChoices';
import { useDeclaration } from '../DeclarationContext';
import { defaultHiddenColumns, listFields } from '../declaration';
import { buildCsv, exportFilename, fetchAllRows } from '../exportList';
import { downloadFile } from '../csv';
import { failureText } from '../feedback';
import type { FieldDeclaration } from '../types';

/** The columns the user sees, in the order they see them. */
export function visibleColumns(
  fields: readonly FieldDeclaration[],
  hidden: readonly string[],
  ranks: readonly number[] | undefined,
): FieldDeclaration[] {
  const order = ranks
    ? [...ranks, ...fields.map((_, index) => index).filter((index) => !ranks.includes(index))]
    : fields.map((_, index) => index);
  return order
    .filter((index) => index >= 0 && index < fields.length)
    .map((index) => fields[index])
    .filter((field) => !hidden.includes(field.source));
}

/**
 * A CSV download of the rows `rowsOf` answers, with the columns the user sees, and its alerts;
 * `canAccess` says whether the user may export this list at all. `announce` says the export
 * runs before it ends (the whole list takes several calls).
 */
export function useCsvExport(rowsOf: () => Promise<RaRecord[]>, { announce = false } = {}) {
  const declaration = useDeclaration();
  const resource = useResourceContext()!;
  const translate = useTranslate();
  const keys = columnStoreKeys(resource);
  const [hidden] = useStore<string[]>(keys.hidden, defaultHiddenColumns(declaration));
  const [ranks] = useStore<number[] | undefined>(keys.ranks);
  const { canAccess } = useCanAccess({ resource, action: 'export' });
  const [running, setRunning] = useState(false);
  const run = async () => {
    setRunning(true);
    if (announce) alerts.loading(translate('app.list.exporting'));
    try {
      const rows = await rowsOf();
      const columns = visibleColumns(listFields(declaration), hidden, ranks);
      downloadFile(buildCsv(resource, columns, rows, translate), exportFilename(resource));
      alerts.success(translate('app.list.exported', { smart_count: rows.length }));
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setRunning(false);
    }
  };
  return { canAccess, running, run };
}

/**
 * Exports the whole filtered list (not just the page) as CSV, with the columns the user sees:
 * the same route as the list, 1000 rows a call, until a page comes back short.
 */
export function ExportCsvButton() {
  const resource = useResourceContext()!;
  const dataProvider = useDataProvider();
  const { filterValues, sort } = useListContext();
  const { canAccess, running, run } = useCsvExport(() => fetchAllRows(dataProvider, resource, { filter: filterValues, sort }), {
    announce: true,
  });
  if (!canAccess) return null;
  return (
    <Button label="app.list.export" onClick={run} disabled={running}>
      <DownloadIcon />
    </Button>
  );
}
