import { Box, Toolbar, Typography } from '@mui/material';
import { useMemo } from 'react';
import { BooleanInput, Form, NumberInput, SaveButton, useTranslate } from 'react-admin';
import { useWatch, type FieldValues } from 'react-hook-form';
import { DEFAULT_PASSWORD_POLICY, readPasswordPolicy } from '../../../common/password-policy';
import { serviceSettingsForm, SETTING_LIMITS, type ServiceSettingsChange } from '../../../common/settings';
import { passwordRulesHint } from '../../auth/passwordRules';
import { zodResolver } from '../../framework';
import { ChipsInput } from '../../framework/form/ChipsInput';
import { FormProblem } from '../../framework/form/DeclaredForm';
import { saveServiceSettings, type ServiceGroup } from './api';
import { FieldRow, LastChange, SettingsSection } from './SettingsSection';
import { useSettingsSubmit } from './useSettingsSubmit';

const FIELDS = [
  'sessionLifetimeMinutes',
  'passwordPolicy',
  'requireTwoFactor',
  'allowedEmailDomains',
  'auditRetentionDays',
  'runRetentionDays',
  'qualitySampleRows',
] as const;
const POLICY_FLAGS = ['requireUppercase', 'requireLowercase', 'requireDigit', 'requireSymbol'] as const;
const FLAG_LABELS: Record<(typeof POLICY_FLAGS)[number], string> = {
  requireUppercase: 'resources.settings.service.require_uppercase',
  requireLowercase: 'resources.settings.service.require_lowercase',
  requireDigit: 'resources.settings.service.require_digit',
  requireSymbol: 'resources.settings.service.require_symbol',
};

/** The body of PUT /settings/service: every setting, an emptied retention meaning "keep forever". */
export function serviceBodyOf(values: FieldValues): ServiceSettingsChange {
  return {
    sessionLifetimeMinutes: values.sessionLifetimeMinutes,
    passwordPolicy: values.passwordPolicy,
    requireTwoFactor: values.requireTwoFactor === true,
    allowedEmailDomains: Array.isArray(values.allowedEmailDomains) ? values.allowedEmailDomains : [],
    auditRetentionDays: values.auditRetentionDays ?? null,
    runRetentionDays: values.runRetentionDays ?? null,
    // Sent only when the server has the setting (it answered a value for it).
    ...(values.qualitySampleRows === undefined ? {} : { qualitySampleRows: values.qualitySampleRows }),
  };
}

/** The rules as they read while they are being chosen. */
function PolicyPreview() {
  const translate = useTranslate();
  const chosen = useWatch({ name: 'passwordPolicy' }) as Record<string, unknown> | undefined;
  const policy = readPasswordPolicy(chosen);
  const minLength = typeof chosen?.minLength === 'number' && chosen.minLength > 0 ? chosen.minLength : DEFAULT_PASSWORD_POLICY.minLength;
  const rules = passwordRulesHint({ ...policy, minLength }, (key, params) => translate(key, params));
  return (
    <Typography variant="body2" sx={{ mt: 1 }} data-testid="policy-preview">
      {translate('resources.settings.service.policy_preview', { rules })}
    </Typography>
  );
}

/** Sessions, password rules, two-factor for everyone, allowed email domains and retention. */
export function ServiceSettingsForm({
  group,
  canUpdate,
  onSaved,
}: {
  group: ServiceGroup;
  canUpdate: boolean;
  onSaved: (group: ServiceGroup) => void;
}) {
  const translate = useTranslate();
  const resolver = useMemo(() => zodResolver(serviceSettingsForm), []);
  const readOnly = !canUpdate;
  const limits = SETTING_LIMITS;

  const submit = useSettingsSubmit((values) => saveServiceSettings(serviceBodyOf(values)), onSaved, FIELDS);

  return (
    <>
      <LastChange updatedAt={group.updatedAt} updatedByName={group.updatedByName} />
      {/* Keyed by the saved group: a save starts the form afresh from the server's answer. */}
      <Form
        key={group.updatedAt ?? 'defaults'}
        record={group.values}
        resolver={resolver}
        onSubmit={submit}
        noValidate
        warnWhenUnsavedChanges
      >
        <SettingsSection title="resources.settings.service.sessions">
          <NumberInput
            source="sessionLifetimeMinutes"
            label="resources.settings.service.session_lifetime"
            helperText={translate('resources.settings.service.session_lifetime_help', { default: group.defaults.sessionLifetimeMinutes })}
            min={limits.sessionLifetimeMinutes.min}
            max={limits.sessionLifetimeMinutes.max}
            readOnly={readOnly}
          />
        </SettingsSection>
        <SettingsSection title="resources.settings.service.passwords" intro="resources.settings.service.password_intro">
          <FieldRow columns="240px">
            <NumberInput
              source="passwordPolicy.minLength"
              label="resources.settings.service.min_length"
              helperText="resources.settings.service.min_length_help"
              min={limits.passwordMinLength.min}
              max={limits.passwordMinLength.max}
              readOnly={readOnly}
            />
          </FieldRow>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 3 }}>
            {POLICY_FLAGS.map((flag) => (
              <BooleanInput key={flag} source={`passwordPolicy.${flag}`} label={FLAG_LABELS[flag]} helperText={false} readOnly={readOnly} />
            ))}
          </Box>
          <PolicyPreview />
        </SettingsSection>
        <SettingsSection title="resources.settings.service.two_factor">
          <BooleanInput
            source="requireTwoFactor"
            label="resources.settings.service.require_two_factor"
            helperText="resources.settings.service.require_two_factor_help"
            readOnly={readOnly}
          />
        </SettingsSection>
        <SettingsSection title="resources.settings.service.invitations">
          <ChipsInput
            source="allowedEmailDomains"
            label="resources.settings.service.allowed_domains"
            helperText="resources.settings.service.allowed_domains_help"
            separator={/[\s,;]+/}
            readOnly={readOnly}
          />
        </SettingsSection>
        <SettingsSection title="resources.settings.service.retention" intro="resources.settings.service.retention_intro">
          <FieldRow columns="1fr 1fr">
            <NumberInput
              source="auditRetentionDays"
              label="resources.settings.service.audit_retention"
              helperText="resources.settings.service.audit_retention_help"
              min={limits.auditRetentionDays.min}
              max={limits.auditRetentionDays.max}
              readOnly={readOnly}
            />
            <NumberInput
              source="runRetentionDays"
              label="resources.settings.service.run_retention"
              helperText="resources.settings.service.run_retention_help"
              min={limits.runRetentionDays.min}
              max={limits.runRetentionDays.max}
              readOnly={readOnly}
            />
          </FieldRow>
        </SettingsSection>
        {group.values.qualitySampleRows !== undefined && (
          <SettingsSection title="resources.settings.service.quality">
            <FieldRow columns="1fr 1fr">
              <NumberInput
                source="qualitySampleRows"
                label="resources.settings.service.quality_sample_rows"
                helperText="resources.settings.service.quality_sample_rows_help"
                min={limits.qualitySampleRows.min}
                max={limits.qualitySampleRows.max}
                readOnly={readOnly}
              />
            </FieldRow>
          </SettingsSection>
        )}
        {canUpdate && (
          <Toolbar disableGutters>
            <SaveButton label="resources.settings.service.save" />
            <FormProblem />
          </Toolbar>
        )}
      </Form>
    </>
  );
}
