import { Alert, Box, Checkbox, Skeleton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { failureText } from '../../src/framework/feedback';
import { getPolicyCatalogue, policyCatalogueKey } from './api';
import { allows, withAction, withAllActions } from './policyMatrix';
import type { PolicyCatalogue, PolicyEntry } from './types';

export function usePolicyCatalogue() {
  return useQuery({
    queryKey: policyCatalogueKey,
    queryFn: ({ signal }) => getPolicyCatalogue(signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export interface PolicyMatrixProps {
  catalogue: PolicyCatalogue;
  value: readonly PolicyEntry[];
  /** Absent: read-only (the show view, an admin role). */
  onChange?: (next: PolicyEntry[]) => void;
  disabled?: boolean;
}

/**
 * Resources (rows) by actions (columns): a box only where the resource has the action, and an
 * "all" box per row. Read-only it shows the same boxes, disabled, so what a role holds reads the
 * same way as when it is edited.
 */
export function PolicyMatrix({ catalogue, value, onChange, disabled }: PolicyMatrixProps) {
  const translate = useTranslate();
  const readOnly = !onChange || disabled;
  const actionName = (action: string) => translate(`resources.roles.actions.${action}`, { _: action });
  return (
    <Table size="small" aria-label={translate('resources.roles.matrix.title')} sx={{ maxWidth: 720 }}>
      <TableHead>
        <TableRow>
          <TableCell>{translate('resources.roles.matrix.resource')}</TableCell>
          <TableCell align="center">{translate('resources.roles.matrix.all')}</TableCell>
          {catalogue.actions.map((action) => (
            <TableCell key={action} align="center">
              {actionName(action)}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {catalogue.resources.map((entry) => {
          const held = entry.actions.filter((action) => allows(value, entry.resource, action));
          const all = held.length === entry.actions.length && entry.actions.length > 0;
          return (
            <TableRow key={entry.resource} data-resource={entry.resource}>
              <TableCell component="th" scope="row">
                {entry.label}
              </TableCell>
              <TableCell align="center">
                <Checkbox
                  size="small"
                  checked={all}
                  indeterminate={!all && held.length > 0}
                  disabled={readOnly}
                  onChange={(event) => onChange?.(withAllActions(value, catalogue.resources, entry.resource, event.target.checked))}
                  slotProps={{ input: { 'aria-label': translate('resources.roles.matrix.all_of', { resource: entry.label }) } }}
                />
              </TableCell>
              {catalogue.actions.map((action) => (
                <TableCell key={action} align="center">
                  {entry.actions.includes(action) ? (
                    <Checkbox
                      size="small"
                      checked={held.includes(action)}
                      disabled={readOnly}
                      onChange={(event) => onChange?.(withAction(value, catalogue.resources, entry.resource, action, event.target.checked))}
                      slotProps={{
                        input: {
                          'aria-label': translate('resources.roles.matrix.cell', { resource: entry.label, action: actionName(action) }),
                        },
                      }}
                    />
                  ) : (
                    <Typography component="span" color="text.disabled" aria-label={translate('resources.roles.matrix.not_applicable')}>
                      —
                    </Typography>
                  )}
                </TableCell>
              ))}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** The matrix once the catalogue is in: a placeholder while it loads, the server's message if it fails. */
export function LoadedPolicyMatrix(props: Omit<PolicyMatrixProps, 'catalogue'> & { isAdmin?: boolean }) {
  const translate = useTranslate();
  const catalogue = usePolicyCatalogue();
  if (catalogue.isPending)
    return (
      <Skeleton
        variant="rectangular"
        height={160}
        sx={{ maxWidth: 720 }}
        role="progressbar"
        aria-label={translate('resources.roles.matrix.loading')}
      />
    );
  if (catalogue.isError) {
    return <Alert severity="error">{translate('resources.roles.matrix.load_error', { message: failureText(catalogue.error) })}</Alert>;
  }
  return (
    <Box>
      {props.isAdmin && (
        <Alert severity="info" sx={{ mb: 1, maxWidth: 720 }}>
          {translate('resources.roles.matrix.admin_note')}
        </Alert>
      )}
      <PolicyMatrix {...props} catalogue={catalogue.data} onChange={props.isAdmin ? undefined : props.onChange} />
    </Box>
  );
}
