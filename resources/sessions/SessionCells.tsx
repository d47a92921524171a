import { Box, Chip, Stack, Typography } from '@mui/material';
import { Link, useTranslate } from 'react-admin';
import { stopRowClick } from '../../src/framework/feedback';
import type { Session } from '../../common/contract/sessions';
import { userSessionsUrl } from './links';

export type SessionState = 'active' | 'ended' | 'pending';

/**
 * Signed in now (`active`), over (`isDeleted`: ended or expired), or neither: a sign-in still
 * waiting for its code.
 */
export function sessionState(session: Pick<Session, 'active' | 'isDeleted'>): SessionState {
  if (session.isDeleted) return 'ended';
  return session.active ? 'active' : 'pending';
}

const STATE_COLOURS = { active: 'success', ended: 'default', pending: 'warning' } as const;

/** The state as a chip, and "This session" on the caller's own. */
export function SessionStatus({ session }: { session: Session }) {
  const translate = useTranslate();
  const state = sessionState(session);
  return (
    <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap', alignItems: 'center' }}>
      <Chip
        size="small"
        label={translate(`resources.sessions.states.${state}`)}
        color={STATE_COLOURS[state]}
        variant={state === 'ended' ? 'outlined' : 'filled'}
        data-state={state}
      />
      {session.current && (
        <Chip size="small" color="primary" variant="outlined" label={translate('resources.sessions.current')} data-current />
      )}
    </Stack>
  );
}

/** The user's name, leading to the list of their sessions; the address under it. */
export function SessionUser({ session }: { session: Session }) {
  const translate = useTranslate();
  const name = session.userName || session.email || session.userId;
  return (
    <Box component="span" sx={{ display: 'inline-block' }}>
      <Link
        to={userSessionsUrl(session.userId)}
        onClick={stopRowClick}
        title={translate('resources.sessions.of_user', { name })}
        aria-label={translate('resources.sessions.of_user', { name })}
      >
        {name}
      </Link>
      {session.userName && session.email && (
        <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          {session.email}
        </Typography>
      )}
    </Box>
  );
}
