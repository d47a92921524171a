import DeleteIcon from '@mui/icons-material/Delete';
import { IconButton, Switch, Tooltip } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Confirm, useCanAccess, useCreatePath, useDataProvider, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import { alerts } from '../../providers/alerts';
import { failureText, stopRowClick } from '../../src/framework/feedback';
import { ActivationToggle } from '../../src/framework/list/ActivationToggle';
import { DeleteRowButton } from '../../src/framework/list/DeleteRowButton';
import type { Role } from './types';

/**
 * What the server refuses for a role, said before anyone tries: system roles are never
 * renamed, deactivated or deleted, and a role users hold can be neither deactivated nor
 * deleted (they would be left with a role nobody can be given).
 */
export interface Refusal {
  key: string;
  count?: number;
}

export function renameRefusal(role: Pick<Role, 'type'> | undefined): Refusal | null {
  return role?.type === 'system' ? { key: 'resources.roles.refusals.system_rename' } : null;
}

export function deactivationRefusal(role: Pick<Role, 'type' | 'isActive' | 'userCount'> | undefined): Refusal | null {
  if (!role) return null;
  if (role.type === 'system') return { key: 'resources.roles.refusals.system_deactivate' };
  if (role.isActive && role.userCount > 0) return { key: 'resources.roles.refusals.held', count: role.userCount };
  return null;
}

export function deletionRefusal(role: Pick<Role, 'type' | 'userCount'> | undefined): Refusal | null {
  if (!role) return null;
  if (role.type === 'system') return { key: 'resources.roles.refusals.system_delete' };
  if (role.userCount > 0) return { key: 'resources.roles.refusals.held', count: role.userCount };
  return null;
}

export function useRefusalText() {
  const translate = useTranslate();
  return (refusal: Refusal) => translate(refusal.key, { smart_count: refusal.count ?? 0 });
}

/** The status column: the framework's activation switch, or a disabled one saying why. */
export function RoleStatusSwitch() {
  const record = useRecordContext<Role>();
  const translate = useTranslate();
  const refusalText = useRefusalText();
  if (!record) return null;
  const refusal = deactivationRefusal(record);
  if (!refusal) return <ActivationToggle field="isActive" />;
  return (
    <Tooltip title={refusalText(refusal)}>
      {/* A disabled control gets no pointer events: the tooltip listens on its wrapper. */}
      <span onClick={stopRowClick} data-refusal={refusal.key}>
        <Switch
          size="small"
          checked={record.isActive}
          disabled
          slotProps={{
            input: { 'aria-label': translate('app.list.activation', { name: record.name }), 'aria-description': refusalText(refusal) },
          }}
        />
      </span>
    </Tooltip>
  );
}

/** The row's delete: the framework's (confirm, mark, remove), or a disabled button saying why. */
export function RoleRowDelete() {
  const record = useRecordContext<Role>();
  const translate = useTranslate();
  const refusalText = useRefusalText();
  const { canAccess } = useCanAccess({ resource: 'roles', action: 'delete', record });
  if (!record || !canAccess) return null;
  const refusal = deletionRefusal(record);
  if (!refusal) return <DeleteRowButton />;
  return (
    <Tooltip title={refusalText(refusal)}>
      <span onClick={stopRowClick} data-refusal={refusal.key}>
        <IconButton
          size="small"
          disabled
          aria-label={translate('app.list.delete', { name: record.name })}
          aria-description={refusalText(refusal)}
        >
          <DeleteIcon fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
  );
}

/** Delete in the show and edit toolbars: confirmed, then back to the list; disabled with the reason when refused. */
export function RoleDeleteAction() {
  const record = useRecordContext<Role>();
  const refusalText = useRefusalText();
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const queryClient = useQueryClient();
  const redirect = useRedirect();
  const createPath = useCreatePath();
  const { canAccess } = useCanAccess({ resource: 'roles', action: 'delete', record });
  const [confirming, setConfirming] = useState(false);
  const [running, setRunning] = useState(false);
  if (!record || !canAccess) return null;
  const refusal = deletionRefusal(record);
  if (refusal) {
    return (
      <Tooltip title={refusalText(refusal)}>
        <span data-refusal={refusal.key}>
          <Button label="ra.action.delete" color="error" disabled aria-description={refusalText(refusal)}>
            <DeleteIcon />
          </Button>
        </span>
      </Tooltip>
    );
  }
  const run = async () => {
    setConfirming(false);
    setRunning(true);
    alerts.loading();
    try {
      const { meta } = await dataProvider.delete('roles', { id: record.id, previousData: record });
      const list = createPath({ resource: 'roles', type: 'list' });
      alerts.success((meta as { message?: string } | undefined)?.message ?? translate('app.list.deleted'), { keepFor: list });
      redirect('list', 'roles');
      // Stale, not refetched here: the record is gone, and the list refetches what it shows.
      await queryClient.invalidateQueries({ queryKey: ['roles'], refetchType: 'none' });
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setRunning(false);
    }
  };
  return (
    <>
      <Button label="ra.action.delete" color="error" disabled={running} onClick={() => setConfirming(true)}>
        <DeleteIcon />
      </Button>
      <Confirm
        isOpen={confirming}
        title={translate('app.list.delete_title', { name: record.name })}
        content={translate('app.list.delete_content')}
        onConfirm={run}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
