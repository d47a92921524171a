/**
 * The declaration framework: a resource is declared once (resources/<name>/index.tsx) and its
 * views, routes, permissions, texts and column choices are derived from the declaration.
 */
export * from './types';
export {
  accessNameOf,
  canSort,
  capabilitiesOf,
  callsOf,
  defaultHiddenColumns,
  defaultSortOf,
  fieldLabelKey,
  filterSources,
  formFields,
  listFields,
  listKeyOf,
  showFields,
  storeKeyOf,
} from './declaration';
export { declaredProviders, type DeclaredProviders } from './providers';
export { DeclarationProvider, useDeclaration } from './DeclarationContext';
export { resourceProps } from './resourceProps';
export { DeclaredList, DeclaredDataTable, DeclaredListActions } from './list/DeclaredList';
export { DeclaredShow } from './show/DeclaredShow';
export { DeclaredCreate, DeclaredEdit } from './form/DeclaredEdit';
export { DeclaredForm } from './form/DeclaredForm';
export { FormDialog, type FormDialogAnswer, type FormDialogProps } from './form/FormDialog';
export { FieldValue } from './FieldValue';
export { FieldInput } from './FieldInput';
export { ActivationToggle } from './list/ActivationToggle';
export { DeleteRowButton } from './list/DeleteRowButton';
export { ExportCsvButton } from './list/ExportCsvButton';
export { ConsolePagination } from './list/ConsolePagination';
export { ListCards } from './list/ListCards';
export { ColumnsMenuButton } from './columns/ColumnsMenuButton';
export { loadColumnChoices } from './columns/columnChoices';
export { useChoices, useFilterProps } from './useChoices';
export { zodResolver } from './zodResolver';
export { toCsv, csvCell } from './csv';
export { useDeclaredSave } from './form/useDeclaredSave';
export { formSchema } from './form/DeclaredForm';
export { failureText } from './feedback';
export { DeclaredBulkActions } from './list/BulkActions';
export { useRowStates } from './list/RowStates';
export { useColumnChoices } from './columns/useColumnChoices';
export { ShareDialog } from './share/ShareDialog';
export { ShareViewButton } from './share/ShareViewButton';
export { RelatedList } from './related/RelatedList';
export { defineRelatedList, relatedListKey, type RelatedListDeclaration, type RelatedCall } from './related/declaration';
export { useRelatedList, WHOLE_LIST } from './related/useRelatedList';
export { RelatedTable, type RelatedColumn, type RelatedRowAction } from './related/RelatedTable';
export { SearchField, SelectFilter } from './related/SearchField';
