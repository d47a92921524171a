import { lazy } from 'react';
import { defineResource } from '../../src/framework/types';
import { ActivationToggle } from '../../src/framework/list/ActivationToggle';
import { deactivationRefusal, deletionRefusal } from './RoleActions';
import { roleCreateSchema, roleEditSchema } from './schemas';
import type { Role } from './types';
import { rolesContract } from '../../common/contract/roles';

export type { Role } from './types';

/**
 * Roles and policies (docs/api/roles.md). The list, filters and cards are the framework's; the
 * editor (a policy matrix and the page list beside the name) and the show view are the area's
 * own. System roles keep their name, their activation and their existence: the controls that
 * would change them are disabled and say why.
 */
export const roles = defineResource<Role>({
  contract: rolesContract,
  recordRepresentation: 'name',
  messages: {
    en: {
      name: 'Role |||| Roles and policies',
      fields: {
        isAdmin: 'Admin',
        userCount: 'Users',
        createdByName: 'Created by',
        createdAt: 'Created',
        updatedAt: 'Updated',
      },
      filters: {
        type: 'Type',
        user: 'Created by',
        status: 'Status',
        search: 'Search roles',
      },
      types: { system: 'System', custom: 'Custom' },
      statuses: { active: 'Active', inactive: 'Inactive' },
      cards: { total: 'Roles', active: 'Active', inactive: 'Inactive', custom: 'Custom', system: 'System' },
      actions: { read: 'Read', create: 'Create', update: 'Update', delete: 'Delete' },
      matrix: {
        title: 'Policies',
        hint: 'What the users holding this role may do, per area. A user may also have policies of their own.',
        resource: 'Area',
        all: 'All',
        all_of: '%{resource}: every action',
        cell: '%{resource}: %{action}',
        not_applicable: 'Not applicable',
        admin_note: 'An admin role holds every permission: its policies cannot be changed.',
        loading: 'Loading the policies…',
        load_error: 'The policy catalogue could not be loaded: %{message}',
      },
      pages: {
        title: 'Pages',
        hint: "The pages in the menu of the role's users, from their next sign-in.",
        admin_only: 'For admin roles only',
        admin_keeps: 'An admin role keeps this page, so that an administrator can always come back to this editor',
        none: 'No page',
        loading: 'Loading the pages…',
        load_error: 'The page catalogue could not be loaded: %{message}',
      },
      holders: {
        title: 'Users with this role',
        none: 'No user has this role',
        count: '%{smart_count} user has this role |||| %{smart_count} users have this role',
        see_list: 'Open in the users list',
        see_all: 'See all %{smart_count} in the users list',
      },
      refusals: {
        system_rename: 'A system role keeps its name',
        system_deactivate: 'A system role cannot be deactivated',
        system_delete: 'A system role cannot be deleted',
        held: '%{smart_count} user has this role; give them another role first |||| %{smart_count} users have this role; give them another role first',
      },
      nothing_changed: 'Nothing to change',
      loading: 'Loading the role…',
    },
  },
  fields: [
    { source: 'name', type: 'text', sortable: true, create: true, edit: true },
    { source: 'description', type: 'longtext', create: true, edit: true },
    {
      source: 'type',
      type: 'status',
      sortable: true,
      choices: [
        { id: 'system', name: 'resources.roles.types.system' },
        { id: 'custom', name: 'resources.roles.types.custom' },
      ],
      colors: { system: 'primary', custom: 'default' },
    },
    { source: 'isAdmin', type: 'boolean' },
    {
      // The activation switch of the row; disabled, saying why, where the server would refuse it (`refusals`).
      source: 'status',
      type: 'status',
      render: () => <ActivationToggle field="isActive" />,
      exportValue: (role) => (role.isActive ? 'Active' : 'Inactive'),
    },
    { source: 'userCount', type: 'number' },
    { source: 'createdByName', type: 'text', list: 'hidden' },
    { source: 'createdAt', type: 'datetime', sortable: true, list: 'hidden' },
    { source: 'updatedAt', type: 'datetime', sortable: true },
  ],
  filters: [
    { source: 'type', type: 'select' },
    { source: 'user', type: 'autocomplete' },
    { source: 'status', type: 'select' },
    { source: 'dates', type: 'dateRange' },
    { source: 'search', type: 'search' },
  ],
  // What the server refuses is said on the row's controls, which stay in place disabled.
  refusals: { delete: deletionRefusal, activation: deactivationRefusal },
  forms: { create: { schema: roleCreateSchema }, edit: { schema: roleEditSchema } },
  list: { rowClick: 'show' },
  views: {
    show: lazy(() => import('./RoleShow')),
    edit: lazy(() => import('./RoleEdit')),
    create: lazy(() => import('./RoleCreate')),
  },
});
