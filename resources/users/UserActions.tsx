import LoginIcon from '@mui/icons-material/Login';
import MailIcon from '@mui/icons-material/MailOutlined';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import ShieldIcon from '@mui/icons-material/Shield';
import PhonelinkEraseIcon from '@mui/icons-material/PhonelinkErase';
import { IconButton, Menu, Tooltip } from '@mui/material';
import { useState, type MouseEvent } from 'react';
import { useCanAccess, useCreatePath, useNavigate, useRecordContext, useTranslate } from 'react-admin';
import { alerts } from '../../providers/alerts';
import { getImpersonator, getStoredUser } from '../../providers/storage';
import { useSignInAs } from '../../src/app/useImpersonation';
import { failureText } from '../../src/framework/feedback';
import { MenuAction } from '../../src/framework/MenuAction';
import { getOwnProfile, resendInvitation } from './api';
import { useResetTwoFactor } from './ResetTwoFactor';
import { ACCESS_CONTROL_ANCHOR, fullName, type User } from './types';

/** Resends the invitation mail of an invited user; the host name is the signed-in user's company. */
export async function resendInvitationOf(user: Pick<User, 'email'>): Promise<string | undefined> {
  const hostname = getStoredUser()?.companyHostname ?? (await getOwnProfile()).user.companyHostname;
  if (!hostname) throw new Error('The company host name is unknown; sign in again.');
  return resendInvitation(user.email, hostname);
}

/** Who may act as whom: admins, on another active user, from their own session. */
function canActAs(record: User | undefined): boolean {
  const me = getStoredUser();
  return Boolean(record && me?.isAdmin && !getImpersonator() && record.id !== me.id && record.status === 'active');
}

/**
 * A user's own actions, in each row and on the record's views: act as this user (admins),
 * resend the invitation (invited users), open the access control.
 */
export function UserRecordActions() {
  const record = useRecordContext<User>();
  const translate = useTranslate();
  const navigate = useNavigate();
  const createPath = useCreatePath();
  const { pendingUserId, signInAs } = useSignInAs();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [resending, setResending] = useState(false);
  const { canAccess: mayInvite } = useCanAccess({ resource: 'users', action: 'create', enabled: record?.status === 'invited' });
  const resetTwoFactor = useResetTwoFactor(record);
  if (!record) return null;

  const name = fullName(record) || record.email;
  const close = () => setAnchor(null);
  const open = (event: MouseEvent<HTMLElement>) => {
    event.stopPropagation();
    setAnchor(event.currentTarget);
  };

  const resend = async () => {
    setResending(true);
    alerts.loading();
    try {
      alerts.success((await resendInvitationOf(record)) ?? translate('resources.users.actions.resent', { email: record.email }));
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setResending(false);
    }
  };

  const showAccess = () => {
    const showPath = createPath({ resource: 'users', type: 'show', id: record.id });
    navigate(`${showPath}#${ACCESS_CONTROL_ANCHOR}`);
  };

  const label = translate('resources.users.actions.more', { name });
  return (
    <>
      <Tooltip title={label}>
        <IconButton size="small" aria-label={label} aria-haspopup="menu" onClick={open}>
          <MoreVertIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close} onClick={(event) => event.stopPropagation()}>
        {canActAs(record) && (
          <MenuAction
            icon={LoginIcon}
            label={translate('resources.users.actions.act_as')}
            disabled={pendingUserId !== null}
            close={close}
            onAct={() => signInAs(String(record.id))}
          />
        )}
        {record.status === 'invited' && mayInvite && (
          <MenuAction
            icon={MailIcon}
            label={translate('resources.users.actions.resend')}
            disabled={resending}
            close={close}
            onAct={() => void resend()}
          />
        )}
        {resetTwoFactor.available && (
          <MenuAction
            icon={PhonelinkEraseIcon}
            label={translate('resources.users.reset_two_factor.action')}
            close={close}
            onAct={resetTwoFactor.ask}
          />
        )}
        <MenuAction icon={ShieldIcon} label={translate('resources.users.actions.access_control')} close={close} onAct={showAccess} />
      </Menu>
      {resetTwoFactor.dialog}
    </>
  );
}
