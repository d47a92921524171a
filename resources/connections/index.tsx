import { lazy } from 'react';
import { defineResource } from '../../src/framework/types';
import { TestStatusChip, testStatusText } from './cells';
import { TestConnectionButton } from './ConnectionTest';
import type { Connection } from './types';
import { connectionsContract } from '../../common/contract/connections';
import { endpointsList, pairsList } from './related';
import { catalogueSettingTexts } from './typeTexts';

export type { Connection } from './types';

/**
 * Connections to sources and destinations (policy resource `connections`;
 * docs/api/connections.md): databases, folders and buckets of files, Databricks, Slack, code
 * repositories. The forms are drawn from the shared type catalogue (common/connections.ts);
 * the show view tests a connection, lists what it reaches and manages its pairs.
 */
export const connections = defineResource<Connection>({
  contract: connectionsContract,
  recordRepresentation: 'name',
  messages: {
    en: {
      name: 'Connection |||| Connections',
      fields: {
        typeLabel: 'Type',
        workspaceId: 'Workspace',
        workspaceName: 'Workspace',
        isSource: 'Source',
        isDestination: 'Destination',
        lastTestOk: 'Last test',
        isActive: 'Active',
        createdByName: 'Created by',
        createdAt: 'Created',
        lastTestedAt: 'Last tested',
        pairCount: 'Pairs',
        tableCount: 'Tables',
      },
      filters: {
        source: 'Source',
        destination: 'Destination',
        user: 'Created by',
        workspace: 'Workspace',
        type: 'Type',
        status: 'Status',
        search: 'Search connections',
      },
      cards: {
        total: 'Connections',
        active: 'Active',
        sources: 'Sources',
        destinations: 'Destinations',
        failing: 'Failing',
        pairs: 'Pairs',
      },
      helpers: {
        isSource: 'Workflows may copy from it',
        isDestination: 'Workflows may copy into it',
      },
      categories: { database: 'Databases', storage: 'Files', compute: 'Compute', chat: 'Messaging', code: 'Code repositories' },
      form: {
        choose_type: 'What does it connect to?',
        type_first: 'Choose a type to see its settings.',
        settings: 'Settings',
        secret_kept: 'Stored — leave blank to keep',
      },
      secret_set: 'Set',
      secret_unset: 'Not set',
      status: { ok: 'OK', ok_latency: 'OK · %{ms} ms', failing: 'Failing', never: 'Never tested' },
      test: {
        button: 'Test connection',
        button_of: 'Test connection %{name}',
        title: 'Test of %{name}',
        section: 'Connection test',
        running: 'Connecting…',
        ok: 'The connection works',
        ok_latency: 'OK in %{ms} ms',
        failed: 'The connection failed',
        not_run: 'The test could not run',
      },
      endpoints: {
        title: 'What it reaches',
        loading: 'Discovering…',
        filter: 'Filter endpoints',
        reload: 'Discover again',
        retry: 'Retry',
        empty: 'The source answered, but has nothing to offer.',
        none_match: 'No endpoint matches.',
        no_group: 'Other',
        name: 'Name',
        kind: 'Kind',
        format: 'Format',
        size: 'Size',
        rows: 'Rows',
        register: 'Register table',
        register_of: 'Register table %{name}',
        kinds: { table: 'Table', file: 'File', channel: 'Channel', repository: 'Repository', branch: 'Branch' },
      },
      pairs: {
        title: 'Source/destination pairs',
        empty: 'This connection is in no pair yet.',
        no_role: 'Mark it as a source or a destination to pair it with another connection.',
        add: 'Add pair',
        add_title: 'New source/destination pair',
        role: 'This connection is the',
        as_source: 'Source',
        as_destination: 'Destination',
        source: 'Source',
        destination: 'Destination',
        choose_other: 'Choose the other connection',
        choose_source: 'Choose the source',
        choose_destination: 'Choose the destination',
        same_connection: 'A connection cannot be paired with itself',
        no_candidates: 'No other connection can be paired this way round.',
        name: 'Name',
        active: 'Active',
        active_of: 'Active: %{name}',
        rename_of: 'Rename %{name}',
        rename_title: 'Rename %{name}',
        delete_of: 'Delete %{name}',
        delete_title: 'Delete the pair %{name}?',
        delete_content: 'Workflows that copy through this pair stop finding it. This cannot be undone.',
      },
      integrations: {
        title: 'Integrations',
        slack: 'Slack',
        bitbucket: 'Code repositories',
        active: 'Active',
        inactive: 'Configured, inactive',
        not_configured: 'Not configured',
        count: '%{smart_count} connection |||| %{smart_count} connections',
        create_slack: 'Connect Slack',
        create_bitbucket: 'Connect Bitbucket',
      },
      // The settings French words (the Bitbucket form's API token and its scopes, Databricks' SQL warehouse), in the catalogue's English.
      settings: { bitbucket: catalogueSettingTexts('bitbucket'), databricks: catalogueSettingTexts('databricks') },
    },
  },
  fields: [
    { source: 'name', type: 'text', create: true, edit: true },
    { source: 'type', type: 'text', list: false, show: false, create: true },
    { source: 'typeLabel', type: 'text' },
    { source: 'description', type: 'longtext', list: 'hidden', create: true, edit: true },
    { source: 'workspaceName', type: 'text' },
    { source: 'workspaceId', type: 'select', list: false, show: false, create: true, edit: true, choices: { route: '/workspaces/active' } },
    { source: 'isSource', type: 'boolean', create: true, edit: true },
    { source: 'isDestination', type: 'boolean', create: true, edit: true },
    {
      source: 'lastTestOk',
      type: 'status',
      render: (connection) => <TestStatusChip connection={connection} />,
      exportValue: testStatusText,
    },
    { source: 'isActive', type: 'boolean' },
    { source: 'createdByName', type: 'text' },
    { source: 'createdAt', type: 'datetime' },
    { source: 'lastTestedAt', type: 'datetime', list: 'hidden' },
    { source: 'pairCount', type: 'number', list: 'hidden' },
    { source: 'tableCount', type: 'number', list: 'hidden' },
    { source: 'settings', type: 'json', list: false, show: false, create: true, edit: true },
  ],
  // Exactly the contract's connections filter.
  filters: [
    { source: 'source', type: 'select' },
    { source: 'destination', type: 'select' },
    { source: 'user', type: 'autocomplete' },
    { source: 'workspace', type: 'autocomplete' },
    { source: 'dates', type: 'dateRange' },
    { source: 'search', type: 'search' },
    { source: 'type', type: 'multiselect' },
    { source: 'status', type: 'select' },
  ],
  forms: { create: { redirect: 'show' }, edit: { redirect: 'show' } },
  list: { rowClick: 'show' },
  actions: { record: [TestConnectionButton] },
  relatedLists: [pairsList, endpointsList],
  views: {
    list: lazy(() => import('./ConnectionList')),
    create: lazy(() => import('./ConnectionCreate')),
    edit: lazy(() => import('./ConnectionEdit')),
    show: lazy(() => import('./ConnectionShow')),
  },
});
