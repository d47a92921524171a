import {
  Alert,
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useCanAccess, useLocation, useRecordContext, useTranslate } from 'react-admin';
import { alerts } from '../../providers/alerts';
import { getStoredUser } from '../../providers/storage';
import { failureText } from '../../src/framework/feedback';
import { getPolicyCatalogue, getUserPolicies, saveUserPolicies } from './api';
import { grantedActions, matrixOf, policiesOf, sameMatrix, setUseRole, toggleAction, type MatrixRow } from './policyMatrix';
import { ACCESS_CONTROL_ANCHOR, type User, type UserPolicies } from './types';

const policiesKey = (userId: string) => ['users', 'policies', userId];

function useAccessControl(userId: string) {
  const queryClient = useQueryClient();
  const translate = useTranslate();
  const catalogue = useQuery({
    queryKey: ['authorization', 'catalogue'],
    queryFn: ({ signal }) => getPolicyCatalogue(signal),
    staleTime: 10 * 60_000,
    retry: false,
  });
  const policies = useQuery({ queryKey: policiesKey(userId), queryFn: ({ signal }) => getUserPolicies(userId, signal), retry: false });
  const saved = useMemo(
    () => (catalogue.data && policies.data ? matrixOf(catalogue.data, policies.data) : null),
    [catalogue.data, policies.data],
  );
  const [rows, setRows] = useState<MatrixRow[] | null>(saved);
  const [saving, setSaving] = useState(false);
  useEffect(() => setRows(saved), [saved]);

  const save = async () => {
    if (!rows) return;
    setSaving(true);
    alerts.loading();
    try {
      const result = await saveUserPolicies(userId, policiesOf(rows));
      queryClient.setQueryData<UserPolicies>(policiesKey(userId), result.data);
      alerts.success(result.message ?? translate('app.form.saved'));
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setSaving(false);
    }
  };

  return {
    rows,
    policies: policies.data,
    error: catalogue.error ?? policies.error,
    dirty: Boolean(rows && saved && !sameMatrix(rows, saved)),
    saving,
    update: (resource: string, change: (row: MatrixRow) => MatrixRow) =>
      setRows((current) => current?.map((row) => (row.resource === resource ? change(row) : row)) ?? current),
    reset: () => setRows(saved),
    save,
  };
}

function actionLabel(translate: ReturnType<typeof useTranslate>, action: string): string {
  return translate(`resources.users.access.actions.${action}`, { _: action });
}

function MatrixTable({
  rows,
  actions,
  editable,
  onChange,
}: {
  rows: MatrixRow[];
  actions: string[];
  editable: boolean;
  onChange: ReturnType<typeof useAccessControl>['update'];
}) {
  const translate = useTranslate();
  return (
    <TableContainer>
      <Table size="small" aria-label={translate('resources.users.access.matrix')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.users.access.resource')}</TableCell>
            <TableCell>{translate('resources.users.access.use_role')}</TableCell>
            {actions.map((action) => (
              <TableCell key={action} align="center">
                {actionLabel(translate, action)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => {
            const resource = translate(`resources.users.access.resources.${row.resource}`, { _: row.label });
            const granted = grantedActions(row);
            return (
              <TableRow key={row.resource} data-resource={row.resource} data-source={row.useRole ? 'role' : 'user'}>
                <TableCell component="th" scope="row">
                  {resource}
                </TableCell>
                <TableCell>
                  <Checkbox
                    size="small"
                    checked={row.useRole}
                    disabled={!editable}
                    onChange={(event) => onChange(row.resource, (current) => setUseRole(current, event.target.checked))}
                    slotProps={{ input: { 'aria-label': translate('resources.users.access.use_role_for', { resource }) } }}
                  />
                </TableCell>
                {actions.map((action) => (
                  <TableCell key={action} align="center">
                    {row.available.includes(action) ? (
                      <Checkbox
                        size="small"
                        checked={granted.includes(action)}
                        disabled={!editable || row.useRole}
                        onChange={(event) => onChange(row.resource, (current) => toggleAction(current, action, event.target.checked))}
                        slotProps={{
                          input: {
                            'aria-label': translate('resources.users.access.action_on', {
                              action: actionLabel(translate, action),
                              resource,
                            }),
                          },
                        }}
                      />
                    ) : (
                      <Typography component="span" color="text.disabled" aria-hidden>
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
    </TableContainer>
  );
}

/**
 * The user's access control: for each resource, the role's policy or the user's own (which
 * replaces the role's for it), edited as a matrix and saved as the user's own policies.
 */
export function AccessControlPanel(_props: { label?: false }) {
  const record = useRecordContext<User>();
  const translate = useTranslate();
  const { canAccess: mayUpdate } = useCanAccess({ resource: 'users', action: 'edit' });
  if (!record) return null;
  return <AccessControlBody user={record} mayUpdate={mayUpdate === true} translate={translate} />;
}

function AccessControlBody({ user, mayUpdate, translate }: { user: User; mayUpdate: boolean; translate: ReturnType<typeof useTranslate> }) {
  const state = useAccessControl(String(user.id));
  const isSelf = getStoredUser()?.id === user.id;
  const isAdmin = state.policies?.isAdmin ?? user.isAdmin;
  const editable = mayUpdate && !isSelf && !isAdmin && !state.saving;
  const heading = translate('resources.users.access.title');
  const section = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  const loaded = state.rows !== null;
  // Reached from a row's "Access control": bring the panel into view once it has its content.
  useEffect(() => {
    if (loaded && hash === `#${ACCESS_CONTROL_ANCHOR}`) section.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
  }, [loaded, hash]);
  const catalogueActions = useMemo(() => {
    const all = new Set(state.rows?.flatMap((row) => row.available) ?? []);
    return ['read', 'create', 'update', 'delete']
      .filter((action) => all.has(action))
      .concat([...all].filter((action) => !['read', 'create', 'update', 'delete'].includes(action)));
  }, [state.rows]);

  return (
    <Box component="section" ref={section} id={ACCESS_CONTROL_ANCHOR} aria-label={heading} sx={{ mt: 2, width: '100%' }}>
      <Typography variant="h6" component="h2">
        {heading}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('resources.users.access.role', { role: state.policies?.roleName ?? user.roleName })}
      </Typography>
      {state.error ? (
        <Alert severity="error">{failureText(state.error)}</Alert>
      ) : !state.rows ? (
        <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
      ) : isAdmin ? (
        <Alert severity="info">{translate('resources.users.access.admin_role')}</Alert>
      ) : (
        <>
          {isSelf && (
            <Alert severity="info" sx={{ mb: 1 }}>
              {translate('resources.users.access.self')}
            </Alert>
          )}
          <MatrixTable rows={state.rows} actions={catalogueActions} editable={editable} onChange={state.update} />
          {mayUpdate && !isSelf && (
            <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
              <Button variant="contained" disabled={!state.dirty || state.saving} onClick={state.save}>
                {translate('resources.users.access.save')}
              </Button>
              <Button disabled={!state.dirty || state.saving} onClick={state.reset}>
                {translate('resources.users.access.reset')}
              </Button>
            </Stack>
          )}
        </>
      )}
    </Box>
  );
}
