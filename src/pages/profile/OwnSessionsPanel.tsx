import { Alert, Box, Button, Chip, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useLocale, useTranslate } from 'react-admin';
import type { Session } from '../../../common/contract/sessions';
import { alerts } from '../../../providers/alerts';
import { failureText } from '../../framework/feedback';
import { endOwnSession } from './securityApi';
import { OWN_SESSIONS_KEY, useOwnSessions } from './useSecurity';
import { Spinner } from '../../framework/Spinner';

const t = (key: string) => `resources.users.profile.own_sessions.${key}`;

/** A browser's user-agent text, shortened to what a person recognises: "Chrome on Linux". */
export function deviceOf(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const system = /Windows/.test(userAgent)
    ? 'Windows'
    : /Android/.test(userAgent)
      ? 'Android'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  if (browser && system) return `${browser} · ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}

function EndButton({ session, onEnded }: { session: Session; onEnded: () => void }) {
  const translate = useTranslate();
  const [confirming, setConfirming] = useState(false);
  const [running, setRunning] = useState(false);
  const run = async () => {
    setConfirming(false);
    setRunning(true);
    try {
      alerts.success((await endOwnSession(session.id)) ?? translate(t('ended')));
      onEnded();
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setRunning(false);
    }
  };
  return (
    <>
      <Button
        color="error"
        size="small"
        disabled={running}
        onClick={() => setConfirming(true)}
        aria-label={translate(t('end_label'), { device: deviceOf(session.userAgent) ?? session.ip ?? '' })}
      >
        {running ? <Spinner size={16} /> : translate(t('end'))}
      </Button>
      <Confirm
        isOpen={confirming}
        title={t('end_title')}
        content={t('end_content')}
        confirm={t('end')}
        onConfirm={run}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}

/**
 * The user's own signed-in sessions: where and since when, "This session" on the current one
 * and "End" on every other, which signs that device out at once. Left out against a server
 * without the call.
 */
export function OwnSessionsPanel() {
  const translate = useTranslate();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const sessions = useOwnSessions();
  if (sessions.data === null) return null;
  const when = (value: string | Date) => new Date(value).toLocaleString(locale);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: OWN_SESSIONS_KEY });

  return (
    <Box component="section" aria-labelledby="own-sessions-heading">
      <Typography variant="subtitle1" component="h3" id="own-sessions-heading">
        {translate(t('title'))}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {translate(t('help'))}
      </Typography>
      {sessions.isError ? (
        <Alert severity="error">{failureText(sessions.error)}</Alert>
      ) : !sessions.data ? (
        <Spinner size={20} aria-label={translate('ra.page.loading')} />
      ) : (
        <List dense aria-label={translate(t('title'))}>
          {sessions.data.map((session) => (
            <ListItem
              key={session.id}
              divider
              data-testid="own-session"
              secondaryAction={
                session.current ? (
                  <Chip size="small" color="primary" variant="outlined" label={translate(t('this_session'))} />
                ) : (
                  <EndButton session={session} onEnded={refresh} />
                )
              }
            >
              <ListItemText
                primary={[deviceOf(session.userAgent) ?? translate(t('unknown_device')), session.ip].filter(Boolean).join(' · ')}
                secondary={translate(t('times'), { started: when(session.createdAt), seen: when(session.lastSeenAt) })}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}
