import { useState, type ReactNode } from 'react';
import { Confirm, useCanAccess, useRefresh, useTranslate } from 'react-admin';
import { alerts } from '../../providers/alerts';
import { getStoredUser } from '../../providers/storage';
import { failureText } from '../../src/framework/feedback';
import { resetUserOtp } from './api';
import { fullName, type User } from './types';

/**
 * An admin's reset of another user's two-factor (a lost phone), after a confirmation: offered
 * on a user who has it on, to holders of the users update permission, never on oneself.
 */
export function useResetTwoFactor(record: User | undefined): { available: boolean; ask: () => void; dialog: ReactNode } {
  const translate = useTranslate();
  const refresh = useRefresh();
  const [asking, setAsking] = useState(false);
  const [running, setRunning] = useState(false);
  const { canAccess } = useCanAccess({ resource: 'users', action: 'update', enabled: Boolean(record?.otpEnabled) });
  const available = Boolean(record?.otpEnabled && canAccess && record.id !== getStoredUser()?.id) && !running;
  const name = record ? fullName(record) || record.email : '';

  const run = async () => {
    if (!record) return;
    setAsking(false);
    setRunning(true);
    alerts.loading();
    try {
      alerts.success((await resetUserOtp(String(record.id))) ?? translate('resources.users.reset_two_factor.done', { name }));
      refresh();
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setRunning(false);
    }
  };

  const dialog = (
    <Confirm
      isOpen={asking}
      title={translate('resources.users.reset_two_factor.title', { name })}
      content={translate('resources.users.reset_two_factor.content')}
      confirm="resources.users.reset_two_factor.confirm"
      confirmColor="warning"
      onConfirm={run}
      onClose={() => setAsking(false)}
    />
  );
  return { available, ask: () => setAsking(true), dialog };
}
