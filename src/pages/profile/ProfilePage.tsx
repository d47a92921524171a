import { Alert, Box, CircularProgress, Stack, Typography } from '@mui/material';
import { Title, useTranslate } from 'react-admin';
import { ProfileActivity } from '../../../resources/users/ProfileActivity';
import { failureText } from '../../framework/feedback';
import { LanguageCard } from './LanguageCard';
import { ProfileDetails } from './ProfileDetails';
import { ProfileSecurity } from './ProfileSecurity';
import { useOwnProfile } from './useOwnProfile';

/**
 * The signed-in user's own profile (`/profile`): details and picture, language, security
 * (two-factor, sessions, password) and their own recent activity. The MPIN and AI-notification
 * settings of the API (`POST /user/mpin`, `PUT /user/ainotification`) are not offered: nothing in
 * the product reads them, and a setting that changes nothing would mislead.
 */
export default function ProfilePage() {
  const translate = useTranslate();
  const profile = useOwnProfile();
  const title = translate('resources.users.profile.title');
  const user = profile.data?.data;
  return (
    <Box sx={{ py: 2, maxWidth: 880 }}>
      <Title title={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {profile.isError ? (
        <Alert severity="error">{failureText(profile.error)}</Alert>
      ) : !user ? (
        <CircularProgress aria-label={translate('ra.page.loading')} />
      ) : (
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {user.email} · {translate('resources.users.profile.role')}: {user.roleName}
          </Typography>
          <ProfileDetails user={user} onSaved={profile.replace} />
          <LanguageCard />
          <ProfileSecurity user={user} />
          <ProfileActivity userId={String(user.id)} />
        </Stack>
      )}
    </Box>
  );
}
