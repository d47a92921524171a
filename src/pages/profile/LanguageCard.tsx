import { Card, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { isLocale, LOCALE_NAMES, LOCALES } from '../../../common/locales';
import { alerts } from '../../../providers/alerts';
import { useUserLocale } from '../../../providers/i18n/useUserLocale';
import { failureText } from '../../framework/feedback';

/**
 * The user's language: the console changes at once, and the choice is kept with the account
 * (mails and reports follow it too). Each language is listed under its own name.
 */
export function LanguageCard() {
  const translate = useTranslate();
  const [locale, chooseLocale] = useUserLocale();
  const [saving, setSaving] = useState(false);
  const heading = translate('app.language.title');

  const change = async (wanted: string) => {
    if (!isLocale(wanted) || wanted === locale) return;
    setSaving(true);
    alerts.loading();
    try {
      await chooseLocale(wanted);
      alerts.success(translate('app.language.saved'));
    } catch (error) {
      alerts.error(translate('app.language.save_error', { message: failureText(error) }));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card component="section" aria-label={heading}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {heading}
        </Typography>
        <TextField
          select
          size="small"
          label={translate('app.language.label')}
          value={locale}
          disabled={saving}
          onChange={(event) => void change(event.target.value)}
          helperText={translate('app.language.help')}
          sx={{ minWidth: 240 }}
        >
          {LOCALES.map((option) => (
            <MenuItem key={option} value={option} lang={option}>
              {LOCALE_NAMES[option]}
            </MenuItem>
          ))}
        </TextField>
      </CardContent>
    </Card>
  );
}
