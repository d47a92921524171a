import DeleteIcon from '@mui/icons-material/Delete';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Confirm, useCanAccess, useCreatePath, useDataProvider, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import { alerts } from '../../providers/alerts';
import { failureText } from '../../src/framework/feedback';
import { Refused, useRefusalText } from '../../src/framework/list/refusals';
import type { Refusal } from '../../src/framework/types';
import type { Role } from './types';

export { useRefusalText };

/**
 * What the server refuses for a role, said before anyone tries: system roles are never
 * renamed, deactivated or deleted, and a role users hold can be neither deactivated nor
 * deleted (they would be left with a role nobody can be given).
 */
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

/** Delete in the show and edit toolbars: confirmed, then back to the list; disabled with the reason when refused. */
export function RoleDeleteAction() {
  const record = useRecordContext<Role>();
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
      <Refused
        refusal={refusal}
        control={(reason) => (
          <Button label="ra.action.delete" color="error" disabled aria-description={reason}>
            <DeleteIcon />
          </Button>
        )}
      />
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
