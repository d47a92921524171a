import { lazy } from 'react';
import { adminUserEditSchema, inviteUserSchema } from '../../common/schemas/users';
import { defineResource } from '../../src/framework/types';
import { DemoAccountButton } from './DemoAccountButton';
import { fullName, type User } from './types';
import { UserRecordActions } from './UserActions';
import { usersContract } from '../../common/contract/users';

export type { User } from './types';

/**
 * The company's users (policy resource `users`; docs/api/users.md): invitations, the admin's
 * edit, activation through the edit route, delete, per-user access control, impersonation,
 * demo accounts. The show and edit views are their own (access control and activity on the
 * one, a live username check on the other); everything else is the framework's.
 */
export const users = defineResource<User>({
  contract: usersContract,
  recordRepresentation: (user) => fullName(user) || user.email,
  messages: {
    en: {
      name: 'User |||| Users',
      fields: {
        roleName: 'Role',
        roleId: 'Role',
        isActive: 'Active',
        workspaceIds: 'Workspaces',
        otpEnabled: '2FA',
        otpRequired: 'Require 2FA',
        aiNotification: 'AI notifications',
        isAdmin: 'Admin role',
        lastLoginAt: 'Last sign-in',
        createdAt: 'Created',
        updatedAt: 'Updated',
      },
      filters: {
        workspace: 'Workspace',
        role: 'Role',
        status: 'Status',
        search: 'Search users',
      },
      statuses: { active: 'Active', invited: 'Invited', inactive: 'Inactive' },
      cards: { total: 'Users', active: 'Active', invited: 'Invited', inactive: 'Inactive', twoFactor: 'Two-factor on' },
      refusals: {
        self_delete: 'You cannot delete your own account',
        self_deactivate: 'You cannot deactivate your own account',
      },
      helpers: {
        email: 'An invitation to choose a password is sent to this address.',
        otpRequired: 'The user sets up two-factor authentication at their next sign-in',
      },
      username: {
        rules: '3 to 40 characters: letters, digits, dots, underscores, hyphens',
        checking: 'Checking…',
        available: 'Available',
        taken: 'Already taken',
        unknown: 'Could not check now; it is checked again when saved',
      },
      actions: {
        more: 'Actions for %{name}',
        act_as: 'Act as this user',
        resend: 'Resend invitation',
        resent: 'A new invitation was sent to %{email}',
        access_control: 'Access control',
      },
      access: {
        title: 'Access control',
        role: 'Role: %{role}',
        matrix: 'Policies per resource',
        resource: 'Resource',
        use_role: "Role's policy",
        use_role_for: "Use the role's policy for %{resource}",
        action_on: '%{action} on %{resource}',
        actions: { read: 'Read', create: 'Create', update: 'Update', delete: 'Delete' },
        admin_role: 'This user has an admin role, which holds every policy. Give them another role to limit what they may do.',
        self: 'You cannot change your own policies; another administrator can.',
        save: 'Save access',
        reset: 'Undo changes',
      },
      activity: {
        title: 'Activity over the last %{days} days',
        cards: { signins: 'Sign-ins', failedSignins: 'Failed sign-ins', changes: 'Changes made', openSessions: 'Open sessions' },
      },
      demo: {
        title: 'Create demo account',
        create: 'Create account',
        password: 'Password',
      },
      profile: {
        title: 'My profile',
        menu: 'My profile',
        details: 'Details',
        picture: 'Picture',
        choose_picture: 'Choose a picture',
        remove_picture: 'Remove picture',
        picture_rules: 'PNG, JPEG or WebP, at most 1 MB',
        picture_type: 'The picture must be a PNG, JPEG or WebP image',
        picture_size: 'The picture must be at most 1 MB',
        save: 'Save profile',
        nothing_changed: 'Nothing to save',
        notifications: 'Notifications',
        ai_notification: 'AI notifications',
        ai_notification_help: 'Receive notifications written by the assistant',
        mpin: 'MPIN',
        mpin_help: 'A 4 to 6 digit PIN',
        mpin_new: 'New MPIN',
        mpin_again: 'New MPIN again',
        mpin_rule: 'The MPIN must be 4 to 6 digits',
        mpin_mismatch: 'The two MPINs do not match',
        mpin_save: 'Save MPIN',
        security: 'Security',
        change_password: 'Change password',
        role: 'Role',
      },
    },
  },
  fields: [
    { source: 'email', type: 'email', sortable: true, create: true, helperText: 'resources.users.helpers.email' },
    { source: 'name', type: 'text', render: (user) => fullName(user) || '—', exportValue: (user) => fullName(user) },
    { source: 'username', type: 'text', edit: true },
    { source: 'firstName', type: 'text', list: 'hidden', sortable: true, show: false, create: true, edit: true },
    { source: 'lastName', type: 'text', list: 'hidden', sortable: true, show: false, create: true, edit: true },
    { source: 'phone', type: 'text', list: 'hidden', edit: true },
    { source: 'roleName', type: 'text' },
    { source: 'roleId', type: 'select', list: false, show: false, create: true, edit: true, choices: { route: '/roles/active' } },
    {
      source: 'status',
      type: 'status',
      sortable: true,
      choices: [
        { id: 'active', name: 'resources.users.statuses.active' },
        { id: 'invited', name: 'resources.users.statuses.invited' },
        { id: 'inactive', name: 'resources.users.statuses.inactive' },
      ],
      colors: { active: 'success', invited: 'warning', inactive: 'default' },
    },
    { source: 'isActive', type: 'boolean', edit: true },
    { source: 'workspaces', type: 'chips' },
    {
      source: 'workspaceIds',
      type: 'multiselect',
      list: false,
      show: false,
      create: true,
      edit: true,
      choices: { route: '/workspaces/active' },
      fromRecord: (user) => (user.workspaces ?? []).map((workspace) => workspace.id),
    },
    { source: 'otpEnabled', type: 'boolean' },
    { source: 'otpRequired', type: 'boolean', list: 'hidden', edit: true, helperText: 'resources.users.helpers.otpRequired' },
    { source: 'aiNotification', type: 'boolean', list: 'hidden' },
    { source: 'isAdmin', type: 'boolean', list: 'hidden' },
    { source: 'lastLoginAt', type: 'datetime', sortable: true },
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'updatedAt', type: 'datetime', list: 'hidden', sortable: true },
  ],
  filters: [
    { source: 'workspace', type: 'autocomplete' },
    { source: 'role', type: 'multiselect' },
    { source: 'status', type: 'multiselect' },
    { source: 'dates', type: 'dateRange' },
    { source: 'search', type: 'search' },
  ],
  forms: {
    create: { schema: inviteUserSchema },
    edit: { schema: adminUserEditSchema, redirect: 'show' },
  },
  list: { rowClick: 'show' },
  // The server keeps a user from deleting or deactivating their own account: the controls say so first.
  refusals: {
    delete: (user, caller) => (user.id === caller.id ? { key: 'resources.users.refusals.self_delete' } : null),
    activation: (user, caller) => (user.id === caller.id && user.isActive ? { key: 'resources.users.refusals.self_deactivate' } : null),
  },
  actions: { record: [UserRecordActions], list: [DemoAccountButton] },
  views: {
    show: lazy(() => import('./UserShow')),
    edit: lazy(() => import('./UserEdit')),
  },
});
