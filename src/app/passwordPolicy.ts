import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { DEFAULT_PASSWORD_POLICY, passwordProblem, type PasswordPolicy } from '../../common/password-policy';
import { getPasswordPolicy } from '../../providers/authActions';

/** The query key of the company's password rules; the settings page refreshes it after a save. */
export const PASSWORD_POLICY_KEY = ['settings', 'passwordPolicy'];

/**
 * The signed-in user's company's password rules (`GET /settings/password-policy`). The default
 * rules stand in while they load or when they cannot be read: the server checks again on save.
 */
export function usePasswordPolicy(): PasswordPolicy {
  const { data } = useQuery({
    queryKey: PASSWORD_POLICY_KEY,
    queryFn: ({ signal }) => getPasswordPolicy(signal),
    retry: false,
    staleTime: 60_000,
  });
  return data ?? DEFAULT_PASSWORD_POLICY;
}

/** A form schema whose password field must follow the policy, with the same message the server gives. */
export function withPasswordPolicy<T extends z.ZodType<Record<string, unknown>>>(schema: T, policy: PasswordPolicy, field = 'password'): T {
  return schema.superRefine((values, ctx) => {
    const value = values[field];
    if (typeof value !== 'string' || value === '') return;
    const problem = passwordProblem(value, policy);
    if (problem) ctx.addIssue({ code: 'custom', path: [field], message: problem });
  }) as unknown as T;
}
