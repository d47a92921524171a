import type { EntityModule } from '../platform/entity-routes';
import { accessEventsModule } from './access-events';
import { apikeysModule } from './apikeys';
import { auditsModule } from './audits';
import { connectionsModule } from './connections';
import { notificationsModule } from './notifications';
import { rolesModule } from './roles';
import { sessionsModule } from './sessions';
import { tablesModule } from './tables';
import { usersModule } from './users';
import { workflowsModule } from './workflows';
import { workspacesModule } from './workspaces';

/**
 * The entities the server serves from their contract (common/contract/<entity>.ts) and a
 * repository (server/modules/<entity>/repository.ts), through the shared entity routes
 * (server/platform/entity-routes.ts). A new entity is one entry here; the areas written before
 * these existed keep their route files under server/routes until they move here.
 */
export const ENTITY_MODULES: readonly EntityModule[] = [
  workspacesModule as EntityModule,
  notificationsModule as EntityModule,
  auditsModule as EntityModule,
  accessEventsModule as EntityModule,
  apikeysModule as EntityModule,
  rolesModule as EntityModule,
  sessionsModule as EntityModule,
  tablesModule as EntityModule,
  usersModule as EntityModule,
  connectionsModule as EntityModule,
  workflowsModule as EntityModule,
];
