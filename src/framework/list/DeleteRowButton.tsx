import DeleteIcon from '@mui/icons-material/Delete';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { Box, CircularProgress, IconButton, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import {
  Confirm,
  useCanAccess,
  useDataProvider,
  useGetRecordRepresentation,
  useRecordContext,
  useRefresh,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { alerts } from '../../../providers/alerts';
import { failureText, stopRowClick } from '../feedback';
import { useRowStates } from './RowStates';
import { Refused, useRefusal } from './refusals';

/**
 * Deletes the row's record after a confirmation. While the call runs the row is marked
 * deleting (dimmed, a spinner instead of the button); success removes it and reloads the list;
 * a failure keeps it, marked with the error, and shows the message as the alert.
 */
export function DeleteRowButton() {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const refresh = useRefresh();
  const rowStates = useRowStates();
  const representation = useGetRecordRepresentation(resource);
  const { canAccess } = useCanAccess({ resource, action: 'delete', record });
  const [confirming, setConfirming] = useState(false);
  // The dialog is mounted at its first opening (then kept, for its closing transition): a list
  // page need not build one per row before anyone asks to delete.
  const [asked, setAsked] = useState(false);
  const refusal = useRefusal('delete', record);
  if (!record || !canAccess) return null;

  const state = rowStates.get(record.id);
  const name = String(representation(record) ?? record.id);
  if (refusal) {
    return (
      <Refused
        refusal={refusal}
        control={(reason) => (
          <IconButton size="small" disabled aria-label={translate('app.list.delete', { name })} aria-description={reason}>
            <DeleteIcon fontSize="small" />
          </IconButton>
        )}
      />
    );
  }

  const run = async () => {
    setConfirming(false);
    rowStates.set(record.id, { deleting: true });
    alerts.loading();
    try {
      const { meta } = await dataProvider.delete(resource, { id: record.id, previousData: record });
      rowStates.set(record.id, { deleted: true });
      alerts.success((meta as { message?: string } | undefined)?.message ?? translate('app.list.deleted'));
      refresh();
    } catch (error) {
      const message = failureText(error);
      rowStates.set(record.id, { deleteError: message });
      alerts.error(message);
    }
  };

  return (
    // A click in the confirmation dialog bubbles through the portal to the row: it must not open the row.
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }} onClick={stopRowClick}>
      {state?.deleting ? (
        <CircularProgress size={20} aria-label={translate('app.list.deleting')} />
      ) : (
        <Tooltip title={translate('app.list.delete', { name })}>
          <IconButton
            size="small"
            color="error"
            aria-label={translate('app.list.delete', { name })}
            onClick={(event) => {
              event.stopPropagation();
              setAsked(true);
              setConfirming(true);
            }}
          >
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {state?.deleteError && (
        <Typography variant="caption" color="error" data-delete-error sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
          <ErrorOutlineIcon fontSize="inherit" />
          {translate('app.list.delete_error', { message: state.deleteError })}
        </Typography>
      )}
      {asked && (
        <Confirm
          isOpen={confirming}
          title={translate('app.list.delete_title', { name })}
          content={translate('app.list.delete_content')}
          onConfirm={run}
          onClose={() => setConfirming(false)}
        />
      )}
    </Box>
  );
}
