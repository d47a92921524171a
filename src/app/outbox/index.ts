import OutgoingMailIcon from '@mui/icons-material/OutgoingMail';
import { lazy } from 'react';

/** The mail outbox resource (admins): its views load with the first visit. */
export const outbox = {
  name: 'outbox',
  list: lazy(() => import('./OutboxList')),
  show: lazy(() => import('./OutboxShow')),
  icon: OutgoingMailIcon,
  recordRepresentation: 'subject',
};
