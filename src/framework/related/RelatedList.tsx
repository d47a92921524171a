import { Box, Typography } from '@mui/material';
import type { ComponentType, ReactNode } from 'react';
import { DataTable, Pagination, ReferenceManyField, useListContext, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import { DeclarationProvider } from '../DeclarationContext';
import { fieldLabelKey, listFields } from '../declaration';
import { failureText } from '../feedback';
import { FieldValue } from '../FieldValue';
import type { AnyResourceDeclaration, FieldDeclaration } from '../types';
import { visuallyHidden } from '../visuallyHidden';

export interface RelatedListProps {
  /** The declaration of the records listed: their columns' types, labels and renderings. */
  of: AnyResourceDeclaration;
  /**
   * The field of the listed records that names the record in context (react-admin's `target`):
   * the listed entity's contract has a related route for it, or its filter takes it.
   */
  target: string;
  /** The record they belong to; by default the record in context. */
  record?: RaRecord & { id: Identifier };
  /** The columns, by source, in order; by default the declaration's shown list columns. */
  columns?: readonly string[];
  perPage?: number;
  /** Buttons in each row (they get the row's record in context). */
  rowActions?: readonly ComponentType[];
  /** What shows when there is no record; a translation key or a node. */
  empty?: ReactNode;
  /** The table's accessible name (translated). */
  label: string;
}

/**
 * The records of one resource that belong to another record — a user's sessions, a table's
 * rules — as react-admin's ReferenceManyField and DataTable, paged by the server: the calls come
 * from the listed entity's contract (getManyReference), the columns from its declaration.
 */
export function RelatedList(props: RelatedListProps) {
  const { of: declaration, target, record, columns, perPage = 10, rowActions = [], empty, label } = props;
  const translate = useTranslate();
  const fields = columnsOf(declaration, columns);
  return (
    <ReferenceManyField
      reference={declaration.name}
      target={target}
      record={record}
      perPage={perPage}
      pagination={<PagesWhenMore perPage={perPage} />}
      empty={typeof empty === 'string' ? <Typography variant="body2">{translate(empty, { _: empty })}</Typography> : empty}
    >
      {/* Not ReferenceManyField's own `error`: given one, it never shows `empty`. */}
      <RelatedListError />
      <DeclarationProvider declaration={declaration}>
        <DataTable
          aria-label={translate(label, { _: label })}
          storeKey={`${declaration.name}.related.${target}`}
          bulkActionButtons={false}
          rowClick={false}
        >
          {fields.map((field) => (
            <DataTable.Col key={field.source} source={field.source} label={fieldLabelKey(declaration.name, field)} disableSort>
              <FieldValue field={field} compact />
            </DataTable.Col>
          ))}
          {rowActions.length > 0 && (
            <DataTable.Col
              label={
                <Box component="span" sx={visuallyHidden}>
                  {translate('app.list.actions')}
                </Box>
              }
              align="right"
            >
              {rowActions.map((Action, index) => (
                <Action key={index} />
              ))}
            </DataTable.Col>
          )}
        </DataTable>
      </DeclarationProvider>
    </ReferenceManyField>
  );
}

/** The declared fields named, in that order; a name the declaration lacks is a mistake, said loudly. */
function columnsOf(declaration: AnyResourceDeclaration, columns: readonly string[] | undefined): FieldDeclaration[] {
  if (!columns) return listFields(declaration).filter((field) => field.list !== 'hidden');
  return columns.map((source) => {
    const field = declaration.fields.find((candidate) => candidate.source === source);
    if (!field) throw new Error(`The resource "${declaration.name}" declares no field "${source}"`);
    return field as FieldDeclaration;
  });
}

/** Pages only when there is more than one: a short related list reads as a plain table. */
function PagesWhenMore({ perPage }: { perPage: number }) {
  const { total, hasNextPage, page } = useListContext();
  const more = (total !== undefined && total > perPage) || hasNextPage === true || page > 1;
  return more ? <Pagination rowsPerPageOptions={[]} /> : null;
}

function RelatedListError() {
  const { error } = useListContext();
  if (!error) return null;
  return (
    <Typography variant="body2" color="error">
      {failureText(error)}
    </Typography>
  );
}
