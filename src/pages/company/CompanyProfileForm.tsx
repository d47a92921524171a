import { Box, Card, CardContent, TextField, Typography } from '@mui/material';
import { useMemo } from 'react';
import { AutocompleteInput, Form, SaveButton, TextInput, useTranslate } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { COUNTRY_CODES } from '../../../common/countries';
import { companyProfileFormSchema, timeZones, type CompanyProfile } from '../../../common/schemas/company';
import { alerts } from '../../../providers/alerts';
import { companyLogo, logoVersionOf } from '../../../providers/companyLogo';
import { failureText } from '../../framework/feedback';
import { zodResolver } from '../../framework/zodResolver';
import { saveCompanyProfile } from './api';
import { companyForm, fieldErrorsOf, formRecordOf } from './companyForm';
import { LogoPicker } from './LogoPicker';

interface Choice {
  id: string;
  name: string;
}

/** Countries by their name in the console's language, the code beside it. */
function useCountryChoices(locale: string): Choice[] {
  return useMemo(() => {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale, 'en'], { type: 'region' });
    } catch {
      names = null;
    }
    return COUNTRY_CODES.map((code) => ({ id: code, name: `${names?.of(code) ?? code} (${code})` })).sort((a, b) =>
      a.name.localeCompare(b.name, locale),
    );
  }, [locale]);
}

/** The IANA zones, plus the saved one should this browser not list it under that name. */
function useTimeZoneChoices(saved: string): Choice[] {
  return useMemo(() => {
    const zones = timeZones().includes(saved) ? timeZones() : [saved, ...timeZones()];
    return zones.map((zone) => ({ id: zone, name: zone.replace(/_/g, ' ') }));
  }, [saved]);
}

const resolver = zodResolver(companyProfileFormSchema);
const FIELD = 'app.company.fields.';

/**
 * The profile and the logo in one form, saved together as the browser sends a form (multipart),
 * so that a refused field keeps the logo from being stored and the other way round.
 */
export function CompanyProfileForm({
  profile,
  canUpdate,
  onSaved,
}: {
  profile: CompanyProfile;
  canUpdate: boolean;
  onSaved: (saved: CompanyProfile) => void;
}) {
  const translate = useTranslate();
  const countries = useCountryChoices(typeof navigator === 'undefined' ? 'en' : navigator.language || 'en');
  const zones = useTimeZoneChoices(profile.timezone);
  const record = useMemo(() => formRecordOf(profile), [profile]);
  const readOnly = !canUpdate;

  const submit = async (values: FieldValues) => {
    const body = companyForm(values, profile);
    if ([...body.keys()].length === 0) {
      alerts.success(translate('app.company.nothing_changed'));
      return undefined;
    }
    alerts.loading();
    try {
      const saved = await saveCompanyProfile(body);
      companyLogo.set(saved.data.hostname, logoVersionOf(saved.data.logoUrl));
      onSaved(saved.data);
      alerts.success(saved.message ?? translate('app.form.saved'));
      return undefined;
    } catch (error) {
      const message = failureText(error);
      alerts.error(message);
      return fieldErrorsOf(message) ?? undefined;
    }
  };

  const detailsHeading = translate('app.company.details');
  const logoHeading = translate('app.company.logo');
  return (
    // Keyed by the saved profile: a save starts the form afresh from the server's answer.
    <Form key={profile.updatedAt} record={record} resolver={resolver} onSubmit={submit} noValidate warnWhenUnsavedChanges>
      <Box sx={{ display: 'grid', gap: 2 }}>
        <Card component="section" aria-label={logoHeading}>
          <CardContent>
            <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
              {logoHeading}
            </Typography>
            <LogoPicker profile={profile} readOnly={readOnly} />
          </CardContent>
        </Card>
        <Card component="section" aria-label={detailsHeading}>
          <CardContent>
            <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
              {detailsHeading}
            </Typography>
            <Box sx={{ display: 'grid', columnGap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
              <TextInput source="name" label={`${FIELD}name`} readOnly={readOnly} />
              <TextField
                label={translate(`${FIELD}hostname`)}
                value={profile.hostname}
                helperText={translate('app.company.hostname_help')}
                slotProps={{ input: { readOnly: true } }}
                size="small"
                margin="dense"
              />
              <TextField
                label={translate(`${FIELD}id`)}
                value={profile.id}
                helperText={translate('app.company.id_help')}
                slotProps={{ input: { readOnly: true } }}
                size="small"
                margin="dense"
              />
              <TextInput source="contactEmail" label={`${FIELD}contactEmail`} type="email" readOnly={readOnly} />
              <TextInput source="phone" label={`${FIELD}phone`} type="tel" readOnly={readOnly} />
              <TextInput source="website" label={`${FIELD}website`} type="url" readOnly={readOnly} />
              <TextInput source="addressLine" label={`${FIELD}addressLine`} readOnly={readOnly} />
              <TextInput source="city" label={`${FIELD}city`} readOnly={readOnly} />
              <TextInput source="postalCode" label={`${FIELD}postalCode`} readOnly={readOnly} />
              <AutocompleteInput source="country" label={`${FIELD}country`} choices={countries} readOnly={readOnly} emptyText="" />
              <AutocompleteInput source="timezone" label={`${FIELD}timezone`} choices={zones} readOnly={readOnly} />
            </Box>
          </CardContent>
        </Card>
        {canUpdate && (
          <Box>
            <SaveButton label="app.company.save" />
          </Box>
        )}
      </Box>
    </Form>
  );
}
