import { useQuery } from '@tanstack/react-query';
import { shareBody, type ShareBody } from '../../../common/schemas/reports';
import { apiRequest, type Answer, type Saved } from '../../../providers/http';

/** Sharing with users of the company (`POST /shares`, docs/api/reports.md) and the people to choose from. */

export interface ActiveUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  roleName?: string;
}

export interface Share {
  id: string;
  kind: 'report' | 'list';
  reportId: string | null;
  path: string | null;
  title: string;
  message: string;
  recipientIds: string[];
  createdAt: string;
}

export const personName = (user: Pick<ActiveUser, 'firstName' | 'lastName' | 'email'>): string =>
  [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;

/** The company's active users (`GET /users/active`), the people a report or a view can go to. */
export function useActiveUsers(enabled: boolean) {
  return useQuery({
    queryKey: ['users', 'active'],
    queryFn: async ({ signal }) => (await apiRequest<{ users?: ActiveUser[] }>('/users/active', { signal })).users ?? [],
    enabled,
    staleTime: 60_000,
  });
}

/** The body's first problem as the server would word it ("userIds: choose at least one user"), or null. */
export function shareProblem(body: ShareBody): string | null {
  const result = shareBody.safeParse(body);
  if (result.success) return null;
  const issue = result.error.issues[0];
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

export async function share(body: ShareBody): Promise<Saved<Share>> {
  const answer = await apiRequest<Answer<Share>>('/shares', { method: 'POST', body });
  return { message: answer.message, data: answer.data };
}
