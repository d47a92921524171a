import type { StringMap } from 'react-admin';

/**
 * English texts of the marketplace page and its "Configure" dialog. The integrations' own names,
 * descriptions and settings are the server's (translated, where another locale adds them, under
 * `resources.connections.types` and `resources.connections.settings`, as on the connection forms).
 */
export const marketplaceMessages = {
  resources: {
    marketplace: {
      title: 'Marketplace',
      intro:
        'Connect the services your data lives in. Each integration you configure becomes a connection: tested at once, then ready for tables, pairs and workflows.',
      no_access: "You don't have access to the marketplace. Ask an admin for the marketplace permission.",
      load_error: 'The marketplace could not be loaded: %{message}',
      loading: 'Loading the integrations',
      retry: 'Try again',
      filters: 'Filter integrations',
      category: 'Category',
      all: 'All',
      search: 'Search integrations',
      none_match: 'No integration matches. Clear the search or choose another category.',
      count: '%{smart_count} integration |||| %{smart_count} integrations',
      categories: {
        cloud_storage: 'Cloud storage',
        database: 'Databases',
        chat: 'Messaging',
        code: 'Code repositories',
        compute: 'Compute',
      },
      card: {
        active: 'Active',
        active_title: 'At least one active connection',
        connections: '%{smart_count} connection |||| %{smart_count} connections',
        connections_of: 'The connections of %{name}',
        none: 'Not configured yet',
        docs: 'Setup guide',
        docs_of: 'Setup guide of %{name} (opens in a new tab)',
        configure: 'Configure',
        configure_of: 'Configure %{name}',
      },
      configure: {
        title: 'Configure %{name}',
        docs: 'Where to find what this form asks for',
        submit: 'Test and save',
        testing: 'Saving and testing…',
        cancel: 'Cancel',
        close: 'Close',
        another: 'Configure another',
        open: 'Open the connection',
        saved_ok: 'The connection "%{name}" was saved and works.',
        saved_failing: 'The connection "%{name}" was saved, but it could not connect. Open it to correct its settings and test it again.',
        no_permission: 'Configuring an integration needs the permission to create in the marketplace.',
      },
    },
  },
} satisfies StringMap;
