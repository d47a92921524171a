import { ONBOARDING_SUCCESS_MESSAGE } from '../../../common/messages';
import { apiRequest } from '../../../providers/http';

/** What `POST /company` takes: the company and its first admin. */
export interface NewCompanyValues {
  companyName: string;
  companyHostname: string;
  firstName: string;
  lastName: string;
  adminEmail: string;
  adminPassword: string;
}

/**
 * Whether this server lets anyone create a company (`GET /company/signup`). A server without the
 * call, or one that cannot be reached, is taken as closed: the screen is then not offered.
 */
export async function companySignupOpen(signal?: AbortSignal): Promise<boolean> {
  try {
    const answer = await apiRequest<{ data?: { open?: unknown } }>('/company/signup', { public: true, signal });
    return answer?.data?.open === true;
  } catch {
    return false;
  }
}

/**
 * Onboards a company (`POST /company`). Its success alert has the spec's fixed text (section 8),
 * whatever the server's message.
 */
export async function createCompany(values: NewCompanyValues): Promise<{ message: string; companyHostname: string; adminEmail: string }> {
  const answer = await apiRequest<{ data?: { companyHostname?: string; adminEmail?: string } }>('/company', {
    method: 'POST',
    body: values,
    public: true,
  });
  return {
    message: ONBOARDING_SUCCESS_MESSAGE,
    companyHostname: answer?.data?.companyHostname ?? values.companyHostname,
    adminEmail: answer?.data?.adminEmail ?? values.adminEmail,
  };
}
