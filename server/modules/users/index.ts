import type { FastifyInstance } from 'fastify';
import { userCardsAnswer, userFilterPropsAnswer, usersContract } from '../../../common/contract/users';
import type { EntityModule } from '../../platform/entity-routes';
import { acceptProfileForms } from '../../users/avatar';
import { userFilterBody } from '../../users/filters';
import type { UserRow } from '../../users/rows';
import { registerAccountRoutes } from './accounts';
import { registerInvitationRoutes } from './invitations';
import { registerPreferenceRoutes } from './preferences';
import { registerProfileRoutes } from './profile';
import { userRepository } from './repository';

/**
 * The company's users (docs/api/users.md). Served from their contract under the users policy: the
 * filter `/users/filter/{limit}/{offset}/{order}/{field}` (the limit first), its choices
 * `/users/filter/props`, the cards `/users/cards` and one user `/users/{id}`. Served here: the
 * list `/users/{offset}/{limit}`, whose limit may be `null`; the invitation `/user` (mailed), the
 * change `/user/profile/{id}` (activation included) and the delete `/users/{id}`, whose rules
 * and answers are the area's own; beside them activation links, demo accounts, username checks,
 * one's own profile, picture, MPIN and preferences, and the active users.
 */
export const usersModule: EntityModule<UserRow> = {
  contract: usersContract,
  repository: userRepository,
  bodies: { filter: userFilterBody },
  calls: {
    filter: { summary: 'Filter and sort the users' },
    filterProps: { summary: 'Choices of the user filters', message: 'User filter choices', data: userFilterPropsAnswer.shape.data },
    cards: { summary: 'Counts of users', message: 'User cards', data: userCardsAnswer.shape.data },
    one: { summary: 'Read a user', message: 'User' },
  },
  own: ['list', 'create', 'update', 'activate', 'deactivate', 'delete'],
  async routes(app: FastifyInstance) {
    // The own profile's form carries a picture: the module's calls take multipart bodies.
    await acceptProfileForms(app);
    registerInvitationRoutes(app);
    registerAccountRoutes(app);
    registerProfileRoutes(app);
    registerPreferenceRoutes(app);
  },
};
