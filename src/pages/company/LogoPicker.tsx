import { Box, Button, FormHelperText, Stack, Typography } from '@mui/material';
import { useState, type DragEvent } from 'react';
import { useTranslate } from 'react-admin';
import { LOGO_FIELD, LOGO_MAX_BYTES, LOGO_TYPES, type CompanyProfile } from '../../../common/schemas/company';
import { companyLogoUrl, logoVersionOf } from '../../../providers/companyLogo';
import { useImageFileField } from '../../framework/form/useImageFileField';
import { logoProblem } from './companyForm';

const SIZE_KB = LOGO_MAX_BYTES / 1024;

/**
 * The logo in the company form: the current one, a new one dropped or chosen and previewed before
 * it is saved, or its removal. The file joins the form's values as `logo`; the server checks it
 * again by its bytes (and cleans an SVG), so this check only spares a pointless upload.
 */
export function LogoPicker({ profile, readOnly }: { profile: CompanyProfile; readOnly: boolean }) {
  const translate = useTranslate();
  const { input, openChooser, chosen, removing, preview, helper, take, choose, remove, keep } = useImageFileField({
    field: LOGO_FIELD,
    removeFlag: 'removeLogo',
    problemOf: (file) => {
      const wrong = logoProblem(file);
      return wrong ? translate(`app.company.${wrong}`, { size: SIZE_KB }) : null;
    },
    disabled: readOnly,
  });
  const [dragging, setDragging] = useState(false);

  const current = profile.hasLogo ? companyLogoUrl(profile.hostname, logoVersionOf(profile.logoUrl)) : null;
  const shown = removing ? null : (preview ?? current);
  const alt = preview ? translate('app.company.logo_new') : translate('app.company.logo_alt', { name: profile.name });

  const drop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    take(event.dataTransfer.files?.[0]);
  };

  const dropProps = readOnly
    ? {}
    : {
        onDragOver: (event: DragEvent<HTMLElement>) => {
          event.preventDefault();
          setDragging(true);
        },
        onDragLeave: () => setDragging(false),
        onDrop: drop,
      };

  return (
    <Stack spacing={1}>
      <Box
        data-testid="logo-drop"
        {...dropProps}
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 2,
          p: 2,
          border: 2,
          borderStyle: readOnly ? 'solid' : 'dashed',
          borderColor: dragging ? 'primary.main' : helper ? 'error.main' : 'divider',
          borderRadius: 2,
          bgcolor: dragging ? 'action.hover' : 'transparent',
          flexWrap: 'wrap',
        }}
      >
        <Box
          sx={{
            width: 176,
            height: 88,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            bgcolor: 'background.default',
            borderRadius: 1,
            flexShrink: 0,
          }}
        >
          {shown ? (
            <Box component="img" src={shown} alt={alt} sx={{ maxWidth: 160, maxHeight: 72, objectFit: 'contain' }} />
          ) : (
            <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', px: 1 }}>
              {translate(removing ? 'app.company.logo_removing' : 'app.company.logo_none')}
            </Typography>
          )}
        </Box>
        {!readOnly && (
          <Stack spacing={1} sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="body2">{translate('app.company.logo_drop')}</Typography>
            <Stack direction="row" spacing={1}>
              <Button size="small" variant="outlined" onClick={openChooser}>
                {translate('app.company.logo_choose')}
              </Button>
              {(profile.hasLogo || chosen) && !removing && (
                <Button size="small" color="error" onClick={() => remove(profile.hasLogo)}>
                  {translate('app.company.logo_remove')}
                </Button>
              )}
              {removing && (
                <Button size="small" onClick={keep}>
                  {translate('app.company.logo_undo')}
                </Button>
              )}
            </Stack>
          </Stack>
        )}
        <input
          ref={input}
          type="file"
          hidden
          accept={LOGO_TYPES.join(',')}
          aria-label={translate('app.company.logo_file')}
          disabled={readOnly}
          onChange={choose}
        />
      </Box>
      {!readOnly && (
        <FormHelperText error={Boolean(helper)}>{helper ?? translate('app.company.logo_rules', { size: SIZE_KB })}</FormHelperText>
      )}
    </Stack>
  );
}
