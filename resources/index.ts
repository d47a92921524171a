import type { AnyResourceDeclaration } from '../src/framework/types';
import { accessEvents } from './access-events';
import { apikeys } from './apikeys';
import { audits } from './audits';
import { connections } from './connections';
import { jobRuns } from './job-runs';
import { notifications } from './notifications';
import { outbox } from './outbox';
import { roles } from './roles';
import { workspaces } from './workspaces';
import { sessions } from './sessions';
import { sourceDestinations } from './source-destinations';
import { tables } from './tables';
import { users } from './users';
import { workflows } from './workflows';

/**
 * Every declared resource. MainApp renders one <Resource> per entry, the dataProvider derives
 * its route map from them, the authProvider its policy names, the i18n provider their texts.
 * A new resource is one import and one entry here.
 */
export const resources: readonly AnyResourceDeclaration[] = [
  outbox,
  users,
  audits,
  accessEvents,
  sessions,
  roles,
  workspaces,
  apikeys,
  notifications,
  connections,
  sourceDestinations,
  tables,
  workflows,
  jobRuns,
];
