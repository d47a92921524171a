import { Box, Button, FormHelperText, Stack } from '@mui/material';
import { useTranslate } from 'react-admin';
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from '../../../common/schemas/users';
import { UserAvatar } from '../../../resources/users/UserAvatar';
import type { User } from '../../../resources/users/types';
import { useImageFileField } from '../../framework/form/useImageFileField';

function problemOf(file: File): 'picture_type' | 'picture_size' | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'picture_type';
  if (file.size > AVATAR_MAX_BYTES) return 'picture_size';
  return null;
}

/**
 * The profile picture in the profile form: the current one (or initials), a new one previewed
 * before it is saved, or its removal. The file joins the form's values as `avatar`; the server
 * checks it again by its bytes.
 */
export function AvatarPicker({ user, version }: { user: User; version: number }) {
  const translate = useTranslate();
  const { input, openChooser, chosen, removing, preview, helper, choose, remove } = useImageFileField({
    field: 'avatar',
    removeFlag: 'removeAvatar',
    problemOf: (file) => {
      const wrong = problemOf(file);
      return wrong ? translate(`resources.users.profile.${wrong}`) : null;
    },
  });

  const shown = removing ? null : preview;
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
      <UserAvatar
        user={removing ? { ...user, hasAvatar: false } : user}
        size={72}
        version={version}
        src={shown ?? (removing ? null : undefined)}
      />
      <Box>
        <Stack direction="row" spacing={1}>
          <Button size="small" variant="outlined" onClick={openChooser}>
            {translate('resources.users.profile.choose_picture')}
          </Button>
          {(user.hasAvatar || chosen) && !removing && (
            <Button size="small" color="error" onClick={() => remove(true)}>
              {translate('resources.users.profile.remove_picture')}
            </Button>
          )}
        </Stack>
        <input
          ref={input}
          type="file"
          hidden
          accept={AVATAR_TYPES.join(',')}
          aria-label={translate('resources.users.profile.picture')}
          data-testid="avatar-file"
          onChange={choose}
        />
        <FormHelperText error={Boolean(helper)}>{helper ?? translate('resources.users.profile.picture_rules')}</FormHelperText>
      </Box>
    </Stack>
  );
}
