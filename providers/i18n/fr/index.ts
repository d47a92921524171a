import { mergeCatalogues } from '../merge';
import { accountsAndListsFr } from './accounts-and-lists';
import { authMessagesFr } from './auth';
import { appMessagesFr } from './app';
import { navigationFr } from './navigation';
import { accessEvents } from './resources/access-events';
import { apikeys } from './resources/apikeys';
import { audits } from './resources/audits';
import { connections } from './resources/connections';
import { jobRuns } from './resources/job-runs';
import { marketplace } from './resources/marketplace';
import { notifications } from './resources/notifications';
import { outbox } from './resources/outbox';
import { reports } from './resources/reports';
import { roles } from './resources/roles';
import { sessions } from './resources/sessions';
import { settings } from './resources/settings';
import { sourceDestinations } from './resources/source-destinations';
import { tables } from './resources/tables';
import { users } from './resources/users';
import { workflows } from './resources/workflows';
import { workspaces } from './resources/workspaces';

/**
 * The console's own French texts, keyed as the English ones: the shell and sign-in screens, the
 * main app, the menu, and each resource's and page's under `resources.<name>`. react-admin's
 * own French (ra-language-french) lies under them.
 */
const perScreen = {
  ...authMessagesFr,
  ...appMessagesFr,
  ...navigationFr,
  resources: {
    'access-events': accessEvents,
    apikeys,
    audits,
    connections,
    'job-runs': jobRuns,
    marketplace,
    notifications,
    outbox,
    reports,
    roles,
    sessions,
    settings,
    'source-destinations': sourceDestinations,
    tables,
    users,
    workflows,
    workspaces,
  },
};

export const consoleFrench: typeof perScreen = mergeCatalogues(perScreen, accountsAndListsFr);
