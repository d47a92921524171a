import { RUN_STATUSES } from '../../common/schemas/workflows';

/** How a run's status reads to a person: in filter choices and in reports. */
export const RUN_STATUS_LABELS: Record<(typeof RUN_STATUSES)[number], string> = {
  queued: 'Queued',
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  canceled: 'Canceled',
  timed_out: 'Timed out',
};

/** The run statuses as filter choices, in their order. */
export const runStatusChoices = () => RUN_STATUSES.map((id) => ({ id, name: RUN_STATUS_LABELS[id] }));
