import { Switch } from '@mui/material';
import { useState } from 'react';
import {
  useCanAccess,
  useDataProvider,
  useGetRecordRepresentation,
  useRecordContext,
  useRefresh,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { alerts } from '../../../providers/alerts';
import type { DeclaredDataProvider } from '../../../providers/dataProvider';
import { failureText, stopRowClick } from '../feedback';
import { Refused, useRefusal } from './refusals';

/**
 * The activation switch of spec section 4: disabled while the call runs (loading), then the
 * list reloads whether it succeeded or not, and the server's message is the alert. Disabled
 * with the reason where the declaration refuses the change (`refusals.activation`).
 */
export interface ActivationToggleProps {
  field: string;
  /** Read by react-admin's show layout for the line's label. */
  label?: string;
  source?: string;
}

export function ActivationToggle({ field }: ActivationToggleProps) {
  const record = useRecordContext();
  const resource = useResourceContext()!;
  const translate = useTranslate();
  const dataProvider = useDataProvider<DeclaredDataProvider>();
  const refresh = useRefresh();
  const representation = useGetRecordRepresentation(resource);
  const { canAccess } = useCanAccess({ resource, action: 'activate', record });
  const [running, setRunning] = useState(false);
  const refusal = useRefusal('activation', record);
  if (!record) return null;
  const active = Boolean(record[field]);
  const label = translate('app.list.activation', { name: String(representation(record) ?? record.id) });
  if (refusal) {
    return (
      <Refused
        refusal={refusal}
        control={(reason) => (
          <Switch size="small" checked={active} disabled slotProps={{ input: { 'aria-label': label, 'aria-description': reason } }} />
        )}
      />
    );
  }

  const toggle = async () => {
    setRunning(true);
    alerts.loading();
    try {
      const result = await dataProvider.activate(resource, { id: record.id, active: !active });
      alerts.success(result.message ?? translate(active ? 'app.list.deactivated' : 'app.list.activated'));
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setRunning(false);
      refresh();
    }
  };

  return (
    <Switch
      size="small"
      checked={active}
      disabled={running || !canAccess}
      onClick={stopRowClick}
      onChange={toggle}
      slotProps={{
        input: {
          'aria-label': label,
          'aria-busy': running,
        },
      }}
    />
  );
}
