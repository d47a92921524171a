import type { AccessEvent } from '../../common/contract/access-events';
import type { Choice } from '../../common/contract/routes';

/** The statuses the server knows, in the order the console offers them; the filter offers those present (AccessEventsList.tsx). */
export const EVENT_STATUSES: readonly AccessEvent['status'][] = ['success', 'failure', 'blocked'];

/** Choices of one of the resource's value lists, named by its texts (`resources.access-events.<group>.<value>`). */
export const choicesOf = (group: string, values: readonly string[]): Choice[] =>
  values.map((value) => ({ id: value, name: `resources.access-events.${group}.${value}` }));

export const EVENT_STATUS_CHOICES = choicesOf('statuses', EVENT_STATUSES);
