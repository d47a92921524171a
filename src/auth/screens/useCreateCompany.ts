import type { FormEvent } from 'react';
import { normaliseHostname } from '../../../common/hostname';
import { DEFAULT_PASSWORD_POLICY } from '../../../common/password-policy';
import { useAuthState } from '../../../providers/authState';
import { PASSWORD_REDIRECT_MS } from '../delays';
import { useDelayedRedirect } from '../hooks/useDelayedRedirect';
import { useForm } from '../hooks/useForm';
import { t } from '../i18n';
import { collectErrors, emailProblem, hostnameProblem, passwordPairErrors } from '../validation';
import { createCompany } from './companyCalls';
import { signInLink } from './signInPrefill';

type CompanyValues = {
  companyName: string;
  companyHostname: string;
  firstName: string;
  lastName: string;
  adminEmail: string;
  newPassword: string;
  confirmPassword: string;
};

const required = (value: string, message: string) => (value.trim() ? null : message);

const validate = (values: CompanyValues) => ({
  ...collectErrors<Omit<CompanyValues, 'newPassword' | 'confirmPassword'>>({
    companyName: required(values.companyName, t('auth.createCompany.companyNameRequired')),
    companyHostname: hostnameProblem(values.companyHostname),
    firstName: required(values.firstName, t('auth.createCompany.firstNameRequired')),
    lastName: required(values.lastName, t('auth.createCompany.lastNameRequired')),
    adminEmail: emailProblem(values.adminEmail),
  }),
  // A new company has the default password rules until its admin changes them.
  ...passwordPairErrors(values, DEFAULT_PASSWORD_POLICY),
});

/**
 * Onboarding (`POST /company`): a company and its first admin, who then signs in; the success
 * text is the spec's fixed one, and sign-in opens filled with the new admin's email and host name.
 */
export function useCreateCompany() {
  const { state, run } = useAuthState();
  const redirect = useDelayedRedirect();
  const form = useForm<CompanyValues>(
    { companyName: '', companyHostname: '', firstName: '', lastName: '', adminEmail: '', newPassword: '', confirmPassword: '' },
    validate,
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.loading || redirect.target || !form.check()) return;
    const values = form.values;
    const outcome = await run(
      () =>
        createCompany({
          companyName: values.companyName.trim(),
          companyHostname: normaliseHostname(values.companyHostname),
          firstName: values.firstName.trim(),
          lastName: values.lastName.trim(),
          adminEmail: values.adminEmail.trim(),
          adminPassword: values.newPassword,
        }),
      { successAlert: (answer) => answer.message },
    );
    if (outcome.ok) {
      redirect.redirectAfter(
        signInLink({ email: outcome.value.adminEmail, companyHostname: outcome.value.companyHostname }),
        PASSWORD_REDIRECT_MS,
      );
    }
  };

  return { form, submit, redirect, loading: state.loading };
}
