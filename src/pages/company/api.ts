import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { CompanyProfile } from '../../../common/schemas/company';
import { companyLogo, logoVersionOf } from '../../../providers/companyLogo';
import { apiRequest, type Answer, type Saved } from '../../../providers/http';
import { getStoredUser, setStoredUser } from '../../../providers/storage';

/** The company profile's calls (docs/api/company.md). */

export async function getCompanyProfile(signal?: AbortSignal): Promise<CompanyProfile> {
  return (await apiRequest<Answer<CompanyProfile>>('/company', { signal })).data;
}

/** `PUT /company` as multipart, the way a browser's form sends it (the logo travels as a file). */
export async function saveCompanyProfile(form: FormData): Promise<Saved<CompanyProfile>> {
  const answer = await apiRequest<Answer<CompanyProfile>>('/company', { method: 'PUT', body: form });
  return { message: answer.message, data: answer.data };
}

export const COMPANY_PROFILE_KEY = ['company', 'profile'];

/**
 * The company's profile, and a way to lay a saved one over it. Whatever logo a profile names
 * becomes the one the app bar shows; a saved name becomes the one the console shows.
 */
export function useCompanyProfile() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: COMPANY_PROFILE_KEY, queryFn: ({ signal }) => getCompanyProfile(signal), retry: false });
  const profile = query.data;
  useEffect(() => {
    if (profile) companyLogo.set(profile.hostname, logoVersionOf(profile.logoUrl));
  }, [profile]);

  const replace = useCallback(
    (saved: CompanyProfile) => {
      queryClient.setQueryData<CompanyProfile>(COMPANY_PROFILE_KEY, saved);
      const stored = getStoredUser();
      if (stored && stored.companyName !== saved.name) setStoredUser({ ...stored, companyName: saved.name });
    },
    [queryClient],
  );
  return { ...query, replace };
}
