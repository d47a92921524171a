import { Alert, IconButton, Skeleton, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import { Fragment, useState, type Key, type ReactNode } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { failureText } from '../feedback';
import { RelatedPager } from './RelatedPager';
import type { RelatedListState } from './useRelatedList';

/** One column of a related table: its header (a translation key, or a text; none for an unnamed one) and its cell. */
export interface RelatedColumn<Row> {
  label?: string;
  align?: 'right';
  /** The cell's style, for every row. */
  sx?: SxProps<Theme>;
  render: (row: Row) => ReactNode;
}

/** A button in each row: an icon with its name as tooltip, run at once or after a confirmation. */
export interface RelatedRowAction<Row> {
  /** The button's name (translated), with the row. */
  label: (row: Row) => string;
  icon: ReactNode;
  color?: 'error';
  /** Whether the caller may use it at all (a permission). */
  allowed?: boolean;
  disabled?: (row: Row) => boolean;
  run: (row: Row) => unknown;
  /** Asks first: the title (translated, with the row), the text and the confirm button (translation keys). */
  confirm?: { title: (row: Row) => string; content: string; button?: string };
}

/** Groups of rows, each under a header row of its own (a schema, a folder). */
export interface RelatedGroup<Row> {
  key: string;
  label: ReactNode;
  rows: Row[];
}

export interface RelatedTableProps<Row> {
  list: RelatedListState<Row>;
  /** The table's accessible name (translated). */
  label: string;
  columns: readonly RelatedColumn<Row>[];
  /** Attributes of a row (data-*, its look). */
  rowProps?: (row: Row) => Record<string, unknown> & { sx?: SxProps<Theme> };
  /** A row of its own instead of the columns' cells (one that edits in place). */
  row?: (row: Row) => ReactNode;
  /** A full-width line under a row, when there is something to say. */
  detail?: (row: Row) => ReactNode;
  actions?: readonly RelatedRowAction<Row>[];
  /** The groups the rows show in; none shown means none matched (`noneMatch`). */
  groups?: (rows: Row[]) => RelatedGroup<Row>[];
  /** What shows when there is no row (a translation key), and when a filter left none. */
  empty: string;
  noneMatch?: string;
  /** The placeholder's height while the first page loads, and its accessible name. */
  loadingHeight?: number;
  loadingLabel?: string;
  /** A button beside the error (a retry). */
  errorAction?: ReactNode;
  /** Previous/next under the table (default); off for a list answered whole. */
  paged?: boolean;
}

/** Rows are named by their `id` (a declared list may say which field that is). */
const keyOf = (row: unknown): Key => String((row as { id: Key }).id);

/**
 * A related list as a table: a placeholder while the first page loads, the server's refusal,
 * the empty text, else the rows with their columns, details and row buttons (a delete asks
 * first), and the pager. It shows what useRelatedList reads (react-admin's getManyReference)
 * for lists whose cells are their own — edited in place, grouped, with details under a row;
 * a declared resource's records with its declared columns are RelatedList's (ReferenceManyField
 * and DataTable).
 */
export function RelatedTable<Row>(props: RelatedTableProps<Row>) {
  const { list, paged = true } = props;
  return (
    <>
      <RelatedTableBody {...props} />
      {paged && !list.error && <RelatedPager list={list} />}
    </>
  );
}

function RelatedTableBody<Row>(props: RelatedTableProps<Row>) {
  const { list, label, columns, actions, groups, empty, noneMatch, loadingHeight = 120, loadingLabel, errorAction } = props;
  const translate = useTranslate();
  const [confirming, setConfirming] = useState<{ action: RelatedRowAction<Row>; row: Row } | null>(null);
  if (list.isPending && !list.error) {
    // A progress bar needs a name: the list's own, or react-admin's "Loading".
    return (
      <Skeleton variant="rectangular" height={loadingHeight} role="progressbar" aria-label={loadingLabel ?? translate('ra.page.loading')} />
    );
  }
  if (list.error) {
    return (
      <Alert severity="error" action={errorAction}>
        {failureText(list.error)}
      </Alert>
    );
  }
  const rows = list.rows ?? [];
  if (rows.length === 0) return <Typography variant="body2">{translate(empty)}</Typography>;
  const grouped = groups?.(rows);
  if (grouped && grouped.length === 0) return <Typography variant="body2">{translate(noneMatch ?? empty)}</Typography>;
  const width = columns.length + (actions ? 1 : 0);
  const rowsOf = (shown: Row[]) =>
    shown.map((row) =>
      props.row ? (
        <Fragment key={keyOf(row)}>{props.row(row)}</Fragment>
      ) : (
        <RelatedRow
          key={keyOf(row)}
          item={row}
          columns={columns}
          actions={actions}
          detail={props.detail}
          rowProps={props.rowProps}
          width={width}
          onConfirm={(action) => setConfirming({ action, row })}
        />
      ),
    );

  return (
    <>
      <Table size="small" aria-label={label} aria-busy={list.isFetching}>
        <TableHead>
          <TableRow>
            {columns.map((column, index) => (
              <TableCell key={index} align={column.align}>
                {column.label ? translate(column.label, { _: column.label }) : null}
              </TableCell>
            ))}
            {actions && <TableCell />}
          </TableRow>
        </TableHead>
        {grouped ? (
          grouped.map((group) => (
            <TableBody key={group.key} data-group={group.key}>
              <TableRow>
                <TableCell component="th" scope="rowgroup" colSpan={width} sx={{ fontWeight: 600, bgcolor: 'action.hover' }}>
                  {group.label}
                </TableCell>
              </TableRow>
              {rowsOf(group.rows)}
            </TableBody>
          ))
        ) : (
          <TableBody>{rowsOf(rows)}</TableBody>
        )}
      </Table>
      {confirming?.action.confirm && (
        <Confirm
          isOpen
          title={confirming.action.confirm.title(confirming.row)}
          content={translate(confirming.action.confirm.content)}
          confirm={translate(confirming.action.confirm.button ?? 'ra.action.delete')}
          onConfirm={async () => {
            const { action, row } = confirming;
            setConfirming(null);
            await action.run(row);
          }}
          onClose={() => setConfirming(null)}
        />
      )}
    </>
  );
}

function RelatedRow<Row>({
  item: row,
  columns,
  actions,
  detail,
  rowProps,
  width,
  onConfirm,
}: Pick<RelatedTableProps<Row>, 'columns' | 'actions' | 'detail' | 'rowProps'> & {
  item: Row;
  width: number;
  onConfirm: (action: RelatedRowAction<Row>) => void;
}) {
  const more = detail?.(row);
  const { sx, ...attributes } = rowProps?.(row) ?? {};
  return (
    <Fragment>
      <TableRow {...attributes} sx={more ? [{ '& > td': { borderBottom: 'none' } }, ...(Array.isArray(sx) ? sx : [sx])] : sx}>
        {columns.map((column, index) => (
          <TableCell key={index} align={column.align} sx={column.sx}>
            {column.render(row)}
          </TableCell>
        ))}
        {actions && (
          <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
            {actions.map((action, index) => (
              <RowActionButton key={index} action={action} row={row} onConfirm={onConfirm} />
            ))}
          </TableCell>
        )}
      </TableRow>
      {more && (
        <TableRow>
          <TableCell colSpan={width} sx={{ pt: 0 }}>
            {more}
          </TableCell>
        </TableRow>
      )}
    </Fragment>
  );
}

function RowActionButton<Row>({
  action,
  row,
  onConfirm,
}: {
  action: RelatedRowAction<Row>;
  row: Row;
  onConfirm: (action: RelatedRowAction<Row>) => void;
}) {
  if (action.allowed === false) return null;
  const name = action.label(row);
  return (
    <Tooltip title={name}>
      <IconButton
        size="small"
        color={action.color}
        aria-label={name}
        disabled={action.disabled?.(row)}
        onClick={() => (action.confirm ? onConfirm(action) : void action.run(row))}
      >
        {action.icon}
      </IconButton>
    </Tooltip>
  );
}
