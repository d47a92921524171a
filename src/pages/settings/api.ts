import type { EmailSettings, ServiceSettings, ServiceSettingsChange, SettingsGroupId } from '../../../common/settings';
import { apiRequest, pathId, type Answer, type Saved } from '../../../providers/http';

/**
 * The settings calls (docs/api/settings.md): both groups, one group saved, and a test mail through
 * the email settings. Every answer is `{ message, data }`; the message is what the alert shows.
 */

export interface SettingsGroup<V> {
  id: SettingsGroupId;
  label: string;
  values: V;
  /** The values before anyone sets them (the session lifetime is the server's). */
  defaults: V;
  updatedAt: string | null;
  updatedBy: string | null;
  updatedByName: string | null;
  /** Email only: how mail goes out while no host is set. */
  instanceTransport?: 'smtp' | 'outbox';
}

export type EmailValues = EmailSettings & { passwordSet: boolean };
export type ServiceGroup = SettingsGroup<ServiceSettings>;
export type EmailGroup = SettingsGroup<EmailValues>;

export interface CompanySettings {
  service: ServiceGroup;
  email: EmailGroup;
}

/** What PUT /settings/email takes: the password only when it is being changed. */
export type EmailChange = EmailSettings & { password?: string };

export interface TestMailOutcome {
  ok: boolean;
  detail: string;
  to: string;
  server: string;
}

export async function getSettings(signal?: AbortSignal): Promise<CompanySettings> {
  const answer = await apiRequest<Answer<Array<ServiceGroup | EmailGroup>>>('/settings', { signal });
  const service = answer.data.find((group) => group.id === 'service') as ServiceGroup | undefined;
  const email = answer.data.find((group) => group.id === 'email') as EmailGroup | undefined;
  if (!service || !email) throw new Error('The server answered without the service or the email settings');
  return { service, email };
}

export async function saveServiceSettings(values: ServiceSettingsChange): Promise<Saved<ServiceGroup>> {
  const answer = await apiRequest<Answer<ServiceGroup>>(`/settings/${pathId('service')}`, { method: 'PUT', body: values });
  return { message: answer.message, data: answer.data };
}

export async function saveEmailSettings(values: EmailChange): Promise<Saved<EmailGroup>> {
  const answer = await apiRequest<Answer<EmailGroup>>(`/settings/${pathId('email')}`, { method: 'PUT', body: values });
  return { message: answer.message, data: answer.data };
}

/** A test mail through the form's settings as they are now (unsaved ones laid over the stored ones by the server). */
export async function sendTestMail(body: { to?: string; settings: EmailChange }): Promise<Saved<TestMailOutcome>> {
  const answer = await apiRequest<Answer<TestMailOutcome>>('/settings/email/test', { method: 'POST', body });
  return { message: answer.message, data: answer.data };
}
