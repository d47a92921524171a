import { Box, Button, Card, CardContent, Divider, Stack, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { LinkBase, useTranslate } from 'react-admin';
import { AUTH_PATHS } from '../../../providers/authPaths';
import type { User } from '../../../resources/users/types';
import { OwnSessionsPanel } from './OwnSessionsPanel';
import { PROFILE_SECURITY, SECURITY_SECTION_ID } from './securityLink';
import { TwoFactorPanel } from './TwoFactorPanel';

/**
 * The Security section (`/profile#security`): two-factor and its recovery codes, the user's own
 * signed-in sessions and the way to the password change (the sign-in part's own screen).
 */
export function ProfileSecurity({ user }: { user: User }) {
  const translate = useTranslate();
  const heading = translate('resources.users.profile.security');
  const location = useLocation();
  const section = useRef<HTMLElement>(null);
  // Opened from the two-factor screen or the menu as /profile#security: bring it into view.
  useEffect(() => {
    if (location.hash === PROFILE_SECURITY.hash) section.current?.scrollIntoView?.({ block: 'start' });
  }, [location.hash]);
  return (
    <Card component="section" aria-label={heading} id={SECURITY_SECTION_ID} ref={section}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {heading}
        </Typography>
        <Stack spacing={3} divider={<Divider flexItem />}>
          <TwoFactorPanel user={user} />
          <OwnSessionsPanel />
          <Box>
            <Button component={LinkBase} to={AUTH_PATHS.changePassword}>
              {translate('resources.users.profile.change_password')}
            </Button>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
