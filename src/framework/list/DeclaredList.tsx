import { Box } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { DataTable, List, useCanAccess, useResourceContext, useTranslate, type RaRecord } from 'react-admin';
import { useDeclaration } from '../DeclarationContext';
import { canSort, capabilitiesOf, defaultHiddenColumns, defaultSortOf, fieldLabelKey, listFields, storeKeyOf } from '../declaration';
import { stopRowClick } from '../feedback';
import { FieldValue } from '../FieldValue';
import type { AnyResourceDeclaration, FieldDeclaration } from '../types';
import { ActivationToggle } from './ActivationToggle';
import { DeclaredBulkActions, hasBulkActions } from './BulkActions';
import { ConsolePagination } from './ConsolePagination';
import { DeleteRowButton } from './DeleteRowButton';
import { useFilterInputs } from './filterInputs';
import { ListCards } from './ListCards';
import { rowStateSx, RowStatesProvider, useRowStates } from './RowStates';
import { firstPageFreshness, useFirstPageOnItsWay } from './firstPage';
import {
  createToolbarShown,
  DeclaredFilterBar,
  DeclaredListActions,
  FirstPageShown,
  RowControlsShown,
  useRowControlsShown,
} from './ListToolbar';
import { visuallyHidden } from '../visuallyHidden';
import { ListLoadError } from './ListLoadError';
import { DeclaredEmptyPage, DeclaredNoResults } from './ListEmpty';

function hasRowActions(declaration: AnyResourceDeclaration): boolean {
  return capabilitiesOf(declaration).delete || (declaration.actions?.record?.length ?? 0) > 0;
}

/** The last cell of a row: the declaration's record actions, then delete. */
function RowActions() {
  const declaration = useDeclaration();
  const can = capabilitiesOf(declaration);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 0.5 }} onClick={stopRowClick}>
      {declaration.actions?.record?.map((Action, index) => (
        <Action key={index} />
      ))}
      {can.delete && <DeleteRowButton />}
    </Box>
  );
}

function Cell({ field, declaration }: { field: FieldDeclaration; declaration: AnyResourceDeclaration }) {
  if (capabilitiesOf(declaration).activate && field.source === declaration.activation?.field) {
    return <RowActivationToggle field={field.source} />;
  }
  return <FieldValue field={field} compact />;
}

/** A small switch's room (40 × 24) until the first rows are on screen, then the switch. */
function RowActivationToggle({ field }: { field: string }) {
  const shown = useRowControlsShown();
  if (!shown) return <Box component="span" sx={{ display: 'inline-block', width: 40, height: 24, verticalAlign: 'middle' }} />;
  return <ActivationToggle field={field} />;
}

function useRowClick(declaration: AnyResourceDeclaration): 'edit' | 'show' | false {
  const resource = useResourceContext();
  const can = capabilitiesOf(declaration);
  const wanted = declaration.list?.rowClick;
  const { canAccess: mayEdit } = useCanAccess({ resource, action: 'edit', enabled: can.edit });
  const { canAccess: mayShow } = useCanAccess({ resource, action: 'show', enabled: can.show });
  const edit = can.edit && mayEdit === true;
  const show = can.show && mayShow === true;
  if (wanted === false) return false;
  if (wanted === 'show') return show ? 'show' : edit ? 'edit' : false;
  return edit ? 'edit' : show ? 'show' : false;
}

/** The declared columns in react-admin's DataTable: the columns button shows, hides and orders them. */
export function DeclaredDataTable() {
  const declaration = useDeclaration();
  const translate = useTranslate();
  const rowStates = useRowStates();
  const rowClick = useRowClick(declaration);
  const sortable = canSort(declaration);
  const rowSx = useCallback((record: RaRecord) => rowStateSx(rowStates.get(record.id)), [rowStates]);
  const isRowSelectable = useCallback((record: RaRecord) => !rowStates.get(record.id)?.deleting, [rowStates]);
  return (
    <DataTable
      storeKey={storeKeyOf(declaration.name)}
      hiddenColumns={defaultHiddenColumns(declaration)}
      rowClick={rowClick}
      rowSx={rowSx}
      isRowSelectable={isRowSelectable}
      bulkActionButtons={hasBulkActions(declaration) ? <DeclaredBulkActions /> : false}
      empty={<DeclaredNoResults />}
    >
      {listFields(declaration).map((field) => (
        <DataTable.Col
          key={field.source}
          source={field.source}
          label={fieldLabelKey(declaration.name, field)}
          disableSort={!(sortable && field.sortable)}
        >
          <Cell field={field} declaration={declaration} />
        </DataTable.Col>
      ))}
      {hasRowActions(declaration) && (
        <DataTable.Col
          label={
            <Box component="span" sx={visuallyHidden}>
              {translate('app.list.actions')}
            </Box>
          }
        >
          <RowActions />
        </DataTable.Col>
      )}
    </DataTable>
  );
}

export { DeclaredListActions } from './ListToolbar';

// A failed page is said in the list (ListLoadError), not raised as a toast as react-admin would.
const LIST_QUERY_OPTIONS = { staleTime: firstPageFreshness, onError: () => undefined };

/**
 * A declared resource's list: summary cards, then react-admin's List with the filter bar,
 * the toolbar, the DataTable and offset/limit paging. Opened as its first page comes (asked for
 * ahead, ./firstPage.ts), it waits a moment for it; the filter bar, the toolbar's buttons and the
 * rows' activation switches (drawn as their room until then) come once the first rows are on
 * screen (./ListToolbar.tsx).
 */
export function DeclaredList({ children }: { children?: ReactNode }) {
  const declaration = useDeclaration();
  const queryClient = useQueryClient();
  useFirstPageOnItsWay(queryClient, declaration);
  const filters = useFilterInputs(declaration);
  const [shown] = useState(createToolbarShown);
  // The same elements on every render: the toolbar's coming does not render the table again.
  const content = useMemo(
    () => (
      <>
        {children ?? <DeclaredDataTable />}
        <FirstPageShown shown={shown} />
      </>
    ),
    [children, shown],
  );
  return (
    <RowStatesProvider>
      <RowControlsShown.Provider value={shown}>
        {declaration.routes.cards && <ListCards />}
        <List
          perPage={declaration.list?.perPage ?? 10}
          sort={defaultSortOf(declaration)}
          filters={filters.length > 0 ? <DeclaredFilterBar filters={filters} shown={shown} /> : undefined}
          actions={<DeclaredListActions shown={shown} filters={filters} />}
          pagination={<ConsolePagination />}
          exporter={false}
          empty={<DeclaredEmptyPage />}
          queryOptions={LIST_QUERY_OPTIONS}
          error={<ListLoadError shown={shown} />}
        >
          {content}
        </List>
      </RowControlsShown.Provider>
    </RowStatesProvider>
  );
}
