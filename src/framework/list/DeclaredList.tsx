import { Box } from '@mui/material';
import { useCallback, type ReactNode } from 'react';
import {
  CreateButton,
  DataTable,
  FilterButton,
  List,
  TopToolbar,
  useCanAccess,
  useResourceContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { ColumnsMenuButton } from '../columns/ColumnsMenuButton';
import { useDeclaration } from '../DeclarationContext';
import { canSort, capabilitiesOf, defaultHiddenColumns, defaultSortOf, fieldLabelKey, listFields, storeKeyOf } from '../declaration';
import { stopRowClick } from '../feedback';
import { FieldValue } from '../FieldValue';
import type { AnyResourceDeclaration, FieldDeclaration } from '../types';
import { ActivationToggle } from './ActivationToggle';
import { DeclaredBulkActions, hasBulkActions } from './BulkActions';
import { ConsolePagination } from './ConsolePagination';
import { DeleteRowButton } from './DeleteRowButton';
import { ExportCsvButton } from './ExportCsvButton';
import { useFilterInputs } from './filterInputs';
import { ListCards } from './ListCards';
import { ShareViewButton } from '../share/ShareViewButton';
import { rowStateSx, RowStatesProvider, useRowStates } from './RowStates';

/** The list toolbar: filters behind "Add filter", columns, create, export, share, the declaration's own. */
export function DeclaredListActions({ children }: { children?: ReactNode }) {
  const declaration = useDeclaration();
  const can = capabilitiesOf(declaration);
  const hidesFilters = (declaration.filters ?? []).some((filter) => filter.alwaysOn === false);
  return (
    <TopToolbar>
      {hidesFilters && <FilterButton />}
      <ColumnsMenuButton />
      {can.create && <CreateButton />}
      {can.export && <ExportCsvButton />}
      {can.export && <ShareViewButton />}
      {declaration.actions?.list?.map((Action, index) => <Action key={index} />)}
      {children}
    </TopToolbar>
  );
}

function hasRowActions(declaration: AnyResourceDeclaration): boolean {
  return capabilitiesOf(declaration).delete || (declaration.actions?.record?.length ?? 0) > 0;
}

/** The last cell of a row: the declaration's record actions, then delete. */
function RowActions() {
  const declaration = useDeclaration();
  const can = capabilitiesOf(declaration);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 0.5 }} onClick={stopRowClick}>
      {declaration.actions?.record?.map((Action, index) => <Action key={index} />)}
      {can.delete && <DeleteRowButton />}
    </Box>
  );
}

function Cell({ field, declaration }: { field: FieldDeclaration; declaration: AnyResourceDeclaration }) {
  if (capabilitiesOf(declaration).activate && field.source === declaration.activation?.field) {
    return <ActivationToggle field={field.source} />;
  }
  return <FieldValue field={field} compact />;
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
        <DataTable.Col label={<Box component="span" sx={visuallyHidden}>{translate('app.list.actions')}</Box>}>
          <RowActions />
        </DataTable.Col>
      )}
    </DataTable>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/**
 * A declared resource's list: summary cards, then react-admin's List with the filter bar,
 * the toolbar, the DataTable and offset/limit paging.
 */
export function DeclaredList({ children }: { children?: ReactNode }) {
  const declaration = useDeclaration();
  const filters = useFilterInputs(declaration);
  return (
    <RowStatesProvider>
      {declaration.routes.cards && <ListCards />}
      <List
        perPage={declaration.list?.perPage ?? 10}
        sort={defaultSortOf(declaration)}
        filters={filters.length > 0 ? filters : undefined}
        actions={<DeclaredListActions />}
        pagination={<ConsolePagination />}
        exporter={false}
        empty={false}
      >
        {children ?? <DeclaredDataTable />}
      </List>
    </RowStatesProvider>
  );
}
