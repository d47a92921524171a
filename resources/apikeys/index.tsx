import { lazy } from 'react';
import { defineResource } from '../../src/framework/types';
import { ApiExplorerButton } from './ApiExplorerButton';
import { ExpiryValue, KeyPrefix } from './cells';
import { createApiKeyForm, editApiKeyForm } from './schemas';
import type { ApiKey } from './types';
import { apikeysContract } from '../../common/contract/apikeys';

export type { ApiKey } from './types';

/**
 * API keys (policy resource `apikeys`; docs/api/apikeys.md): credentials for the API that act
 * as their access user within the operations granted to them. The secret is shown once, in a
 * dialog right after the create call; the show view grants operations from the server's own
 * catalogue. The API explorer (src/pages/api-explorer) tries the operations with a key.
 */
export const apikeys = defineResource<ApiKey>({
  contract: apikeysContract,
  recordRepresentation: 'name',
  messages: {
    en: {
      name: 'API key |||| API keys',
      fields: {
        prefix: 'Key',
        accessUserName: 'Access user',
        accessUserId: 'Access user',
        createdByName: 'Created by',
        isActive: 'Active',
        isDeleted: 'Deleted',
        expiresAt: 'Expires',
        lastUsedAt: 'Last used',
        createdAt: 'Created',
        updatedAt: 'Updated',
      },
      filters: {
        accessUser: 'Access user',
        createduser: 'Created by',
        isActive: 'Status',
        isDeleted: 'Deleted',
        search: 'Search keys',
      },
      cards: {
        total: 'API keys',
        active: 'Active',
        inactive: 'Inactive',
        expired: 'Expired',
        deleted: 'Deleted',
        recentlyUsed: 'Used in the last 7 days',
      },
      helpers: {
        expiresAt: 'Leave empty for a key that does not expire',
        accessUserId: 'The key acts as this user, with their rights. Leave empty for yourself.',
      },
      never: 'Never',
      expired: 'Expired',
      deleted_key: 'This key is deleted: it no longer works and cannot be changed.',
      secret: {
        title: 'Your new API key',
        intro: 'The key "%{name}" was created. Send it in the x-api-key header of your calls.',
        warning:
          'Copy it now and keep it somewhere safe. You will not see it again: the server keeps only a fingerprint of it. If it is lost, delete the key and make a new one.',
        label: 'API key',
        copy: 'Copy',
        copied: 'Copied to the clipboard',
        copy_failed: 'Could not copy: select the key and copy it by hand',
        done: 'I have copied it',
        missing: 'The server did not send the key.',
      },
      operations: {
        title: 'Operations',
        intro: 'What this key may call. It never does more than its access user could.',
        granted: '%{count} of %{total} operations granted',
        search: 'Find operations',
        all_of: 'All operations of %{tag}',
        save: 'Save operations',
        reset: 'Undo changes',
        loading: 'Loading the operations…',
        load_error: 'The operations could not be loaded: %{message}',
        none: 'No operation matches.',
        unknown: 'Granted, but no longer offered by the server: %{ids}. Saving drops them.',
        read_only: 'You may not change what this key may call.',
      },
      explorer: {
        title: 'API explorer',
        open: 'API explorer',
        intro: 'The operations an API key may be granted. Choose one to see what it takes, and try it with a key.',
        search: 'Search operations',
        operations: 'Operations',
        count: '%{smart_count} operation |||| %{smart_count} operations',
        none: 'No operation matches.',
        choose: 'Choose an operation on the left.',
        loading: 'Loading…',
        load_error: 'Could not load: %{message}',
        no_access: 'You need read access to API keys to browse the API.',
        parameters: 'Parameters',
        no_parameters: 'No parameters.',
        parameter: 'Name',
        where: 'In',
        required: 'Required',
        type: 'Type',
        description: 'Description',
        body: 'Body',
        no_body: 'This operation takes no body.',
        body_required: 'Required; sent as %{types}',
        body_optional: 'Optional; sent as %{types}',
        schema: 'Schema',
        try_it: 'Try it',
        try_note:
          "The call is sent with the API key below, not with your session: it runs with the key's access (as its access user, limited to the operations granted to it), and fails if this operation is not granted to the key.",
        api_key: 'API key',
        api_key_help: 'dok_… — it is sent in the x-api-key header and kept only on this page',
        key_required: 'Enter an API key',
        param_required: 'Required',
        json_body: 'Body (JSON)',
        json_invalid: 'Not valid JSON: %{message}',
        send: 'Send',
        sending: 'Sending…',
        response: 'Response',
        status: 'Status %{status}',
        time: '%{ms} ms',
        network_error: 'The call did not reach the server: %{message}',
        empty_answer: '(empty answer)',
      },
    },
  },
  fields: [
    { source: 'name', type: 'text', create: true, edit: true },
    { source: 'prefix', type: 'text', render: (key) => <KeyPrefix prefix={key.prefix} />, exportValue: (key) => `dok_${key.prefix}` },
    { source: 'accessUserName', type: 'text' },
    // Chosen in the forms by admins only (resources/apikeys/ApiKeyForm): others make keys that act as themselves.
    {
      source: 'accessUserId',
      type: 'select',
      list: false,
      show: false,
      create: true,
      edit: true,
      helperText: 'resources.apikeys.helpers.accessUserId',
    },
    { source: 'createdByName', type: 'text' },
    { source: 'isActive', type: 'boolean' },
    { source: 'isDeleted', type: 'boolean', list: 'hidden' },
    {
      source: 'expiresAt',
      type: 'date',
      create: true,
      edit: true,
      helperText: 'resources.apikeys.helpers.expiresAt',
      render: (key) => <ExpiryValue expiresAt={key.expiresAt} />,
      exportValue: (key) => key.expiresAt ?? '',
    },
    { source: 'lastUsedAt', type: 'datetime' },
    {
      source: 'operations',
      type: 'number',
      render: (key) => (key.operations ?? []).length,
      exportValue: (key) => (key.operations ?? []).join(' '),
    },
    { source: 'createdAt', type: 'datetime' },
    { source: 'updatedAt', type: 'datetime', list: 'hidden' },
  ],
  // Exactly the spec's API keys filter.
  filters: [
    { source: 'accessUser', type: 'autocomplete' },
    { source: 'createduser', type: 'autocomplete' },
    { source: 'isActive', type: 'select' },
    { source: 'isDeleted', type: 'select' },
    { source: 'dates', type: 'dateRange' },
    { source: 'search', type: 'search' },
  ],
  forms: {
    create: { schema: createApiKeyForm, redirect: 'show' },
    edit: { schema: editApiKeyForm, redirect: 'show' },
  },
  can: { bulkDelete: true, bulkActivate: true },
  list: { rowClick: 'show' },
  actions: { list: [ApiExplorerButton] },
  views: {
    create: lazy(() => import('./ApiKeyCreate')),
    edit: lazy(() => import('./ApiKeyEdit')),
    show: lazy(() => import('./ApiKeyShow')),
  },
});
