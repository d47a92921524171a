import type { FormEvent } from 'react';
import { t } from '../i18n';
import type { FormApi } from '../hooks/useForm';
import type { AccountLookupValues } from '../validation';
import { SubmitButton } from './SubmitButton';
import { TextField } from './TextField';

/** Email and company host name: how a signed-out user names their account. */
export function AccountLookupForm({
  form,
  submit,
  loading,
  label,
  busyLabel,
}: {
  form: FormApi<AccountLookupValues>;
  submit: (event: FormEvent) => void;
  loading: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <TextField {...form.field('email')} label={t('auth.fields.email')} type="email" autoComplete="username" autoFocus />
      <TextField
        {...form.field('companyHostname')}
        label={t('auth.fields.companyHostname')}
        hint={t('auth.fields.companyHostnameHint')}
        autoComplete="organization"
        autoCapitalize="none"
        spellCheck={false}
      />
      <SubmitButton loading={loading} label={label} busyLabel={busyLabel} />
    </form>
  );
}
