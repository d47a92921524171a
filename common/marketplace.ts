import { connectionTypeOf, type ConnectionType, type ConnectionTypeDeclaration, type SettingDeclaration } from './connections';

/**
 * The marketplace of integrations: which connection types it offers, under which category, with
 * a link to the vendor's page on what the form asks for. Everything else of an integration —
 * its name, description, the parts it can play and its settings form — is its connection type's
 * declaration (common/connections.ts), so that the marketplace and the connections area never
 * disagree on what a type takes.
 */

export const MARKETPLACE_CATEGORIES = ['cloud_storage', 'database', 'chat', 'code', 'compute'] as const;
export type MarketplaceCategory = (typeof MARKETPLACE_CATEGORIES)[number];

export interface MarketplaceListing {
  /** The integration's id in the marketplace's routes (`/marketplace/{id}/integration`). */
  id: string;
  connectionType: ConnectionType;
  category: MarketplaceCategory;
  /** The vendor's page on getting what the form asks for (a key, a token, an address). */
  docsUrl?: string;
}

export const MARKETPLACE: readonly MarketplaceListing[] = [
  {
    id: 's3',
    connectionType: 's3',
    category: 'cloud_storage',
    docsUrl: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html',
  },
  { id: 'gcs', connectionType: 'gcs', category: 'cloud_storage', docsUrl: 'https://cloud.google.com/iam/docs/keys-create-delete' },
  {
    id: 'azure_blob',
    connectionType: 'azure_blob',
    category: 'cloud_storage',
    docsUrl: 'https://learn.microsoft.com/azure/storage/common/storage-account-keys-manage',
  },
  { id: 'slack', connectionType: 'slack', category: 'chat', docsUrl: 'https://api.slack.com/messaging/webhooks' },
  {
    id: 'bitbucket',
    connectionType: 'bitbucket',
    category: 'code',
    // Where the API token the form asks for is made, and with which scopes (app passwords are no more).
    docsUrl: 'https://support.atlassian.com/bitbucket-cloud/docs/create-an-api-token/',
  },
  { id: 'git', connectionType: 'git', category: 'code', docsUrl: 'https://git-scm.com/book/en/v2/Git-on-the-Server-The-Protocols' },
  {
    id: 'databricks',
    connectionType: 'databricks',
    category: 'compute',
    docsUrl: 'https://docs.databricks.com/en/dev-tools/auth/pat.html',
  },
  {
    id: 'postgresql',
    connectionType: 'postgresql',
    category: 'database',
    docsUrl: 'https://www.postgresql.org/docs/current/libpq-connect.html',
  },
  { id: 'mysql', connectionType: 'mysql', category: 'database', docsUrl: 'https://mariadb.com/kb/en/connecting-to-mariadb/' },
];

/** What the marketplace answers of an integration, before the company's own counts. */
export interface IntegrationDeclaration {
  id: string;
  name: string;
  category: MarketplaceCategory;
  description: string;
  connectionType: ConnectionType;
  /** The parts a connection of it can play in a source/destination pair. */
  roles: ConnectionTypeDeclaration['roles'];
  /** Its connection type's declared settings; each says whether it is `secret`. */
  settings: Array<SettingDeclaration & { secret: boolean }>;
  docsUrl?: string;
}

export function integrationOf(listing: MarketplaceListing): IntegrationDeclaration {
  const declaration = connectionTypeOf(listing.connectionType)!;
  return {
    id: listing.id,
    name: declaration.label,
    category: listing.category,
    description: declaration.description,
    connectionType: declaration.type,
    roles: declaration.roles,
    settings: declaration.settings.map((setting) => ({ ...setting, secret: setting.secret === true })),
    ...(listing.docsUrl ? { docsUrl: listing.docsUrl } : {}),
  };
}

export function marketplaceListing(id: string): MarketplaceListing | undefined {
  return MARKETPLACE.find((listing) => listing.id === id);
}
