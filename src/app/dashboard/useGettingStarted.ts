import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { gettingStartedAnswer, GettingStartedStep } from '../../../common/contract/answers/company';
import { apiRequest } from '../../../providers/http';

type Steps = z.infer<typeof gettingStartedAnswer>['data']['steps'];

/** The user preference that keeps the checklist dismissed (server-side, so it outlasts sign-out). */
export const GETTING_STARTED_PREFERENCE = 'gettingStarted';

/** Where each step is taken in the console. */
export const STEP_LINKS: Record<GettingStartedStep, string> = {
  connection: '/connections/create',
  table: '/tables/create',
  rules: '/tables',
  workflow: '/workflows/create',
  colleague: '/users/create',
};

const STEPS_KEY = ['company', 'getting-started'] as const;
const DISMISSED_KEY = ['user', 'preferences', GETTING_STARTED_PREFERENCE] as const;

/** `GET /company/getting-started`; null from a server without the call (the checklist is then not shown). */
async function loadSteps(signal: AbortSignal): Promise<Steps | null> {
  try {
    const answer = await apiRequest<{ data?: { steps?: Steps } }>('/company/getting-started', { signal });
    return Array.isArray(answer?.data?.steps) ? answer.data.steps : null;
  } catch {
    return null;
  }
}

async function loadDismissed(signal: AbortSignal): Promise<boolean> {
  try {
    const answer = await apiRequest<{ data?: Record<string, { dismissed?: unknown } | null> }>(
      `/user/preferences/${GETTING_STARTED_PREFERENCE}`,
      { signal },
    );
    return answer?.data?.[GETTING_STARTED_PREFERENCE]?.dismissed === true;
  } catch {
    return false;
  }
}

/**
 * The getting-started checklist of the dashboard: the steps, ticked from the company's data, and
 * whether the user dismissed it (kept with their preferences on the server).
 */
export function useGettingStarted(enabled: boolean) {
  const queryClient = useQueryClient();
  const steps = useQuery({ queryKey: STEPS_KEY, queryFn: ({ signal }) => loadSteps(signal), enabled, retry: false });
  const list = steps.data ?? null;
  const allDone = list !== null && list.every((step) => step.done);
  // Asked only when there is a checklist to show.
  const dismissed = useQuery({
    queryKey: DISMISSED_KEY,
    queryFn: ({ signal }) => loadDismissed(signal),
    enabled: enabled && list !== null && !allDone,
    retry: false,
  });
  const dismiss = useMutation({
    mutationFn: () =>
      apiRequest(`/user/preferences/${GETTING_STARTED_PREFERENCE}`, { method: 'PUT', body: { value: { dismissed: true } } }),
    onMutate: () => queryClient.setQueryData(DISMISSED_KEY, true),
    onError: () => queryClient.setQueryData(DISMISSED_KEY, false),
  });
  return {
    steps: list,
    visible: enabled && list !== null && dismissed.data === false && !allDone,
    dismiss: () => dismiss.mutate(),
  };
}
