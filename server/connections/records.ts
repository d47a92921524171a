import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { connectionTypeOf, type ConnectionCategory, type ConnectionType } from '../../common/connections';
import type { Secrets } from '../auth/secrets';
import type { ConnectionConfig } from '../connectors/types';
import type { Db } from '../db/client';
import { connections, dataTables, sourceDestinations, users, workspaces } from '../db/schema';
import { notFound } from '../http/errors';
import { userNameSql } from '../users/display-name';

/**
 * How connections are read and answered. The secret settings stay encrypted in `secrets_enc`;
 * an answer says only which of them are set.
 */

const creators = alias(users, 'connection_creators');

const selectedColumns = {
  id: connections.id,
  name: connections.name,
  description: connections.description,
  type: connections.type,
  isSource: connections.isSource,
  isDestination: connections.isDestination,
  workspaceId: connections.workspaceId,
  workspaceName: workspaces.name,
  settings: connections.settings,
  secretsEnc: connections.secretsEnc,
  isActive: connections.isActive,
  lastTestedAt: connections.lastTestedAt,
  lastTestOk: connections.lastTestOk,
  lastTestLatencyMs: connections.lastTestLatencyMs,
  lastTestMessage: connections.lastTestMessage,
  pairCount:
    sql<number>`(select count(*) from ${sourceDestinations} p where p.company_id = ${connections.companyId} and (p.source_id = ${connections.id} or p.destination_id = ${connections.id}))`.mapWith(
      Number,
    ),
  tableCount:
    sql<number>`(select count(*) from ${dataTables} t where t.company_id = ${connections.companyId} and t.connection_id = ${connections.id})`.mapWith(
      Number,
    ),
  createdBy: connections.createdBy,
  createdByName: userNameSql(creators),
  createdAt: connections.createdAt,
  updatedAt: connections.updatedAt,
};

type Selected = Awaited<ReturnType<ReturnType<typeof selectConnections>['execute']>>[number];

export interface ConnectionRow extends Omit<Selected, 'secretsEnc' | 'type'> {
  type: ConnectionType;
  typeLabel: string;
  category: ConnectionCategory;
  /** The secret settings that hold a value (never their values). */
  secretsSet: string[];
}

/** The connections with their workspace and creator; add `.where(…)`, order and paging. */
export function selectConnections(db: Db) {
  return db
    .select(selectedColumns)
    .from(connections)
    .leftJoin(
      workspaces,
      and(
        eq(workspaces.companyId, connections.companyId),
        eq(workspaces.id, connections.workspaceId),
        sql`${workspaces.deletedAt} is null`,
      ),
    )
    .leftJoin(creators, and(eq(creators.companyId, connections.companyId), eq(creators.id, connections.createdBy)))
    .$dynamic();
}

export const companyConnections = (companyId: string, extra?: SQL) => and(eq(connections.companyId, companyId), extra)!;

/** The stored secrets of a connection, decrypted; {} when it has none. */
export function openSecrets(secrets: Secrets, sealed: string | null): Record<string, string> {
  if (!sealed) return {};
  return JSON.parse(secrets.decrypt(sealed)) as Record<string, string>;
}

/** Secrets to store: the encrypted JSON, or null when there are none. */
export function sealSecrets(secrets: Secrets, values: Record<string, string>): string | null {
  return Object.keys(values).length === 0 ? null : secrets.encrypt(JSON.stringify(values));
}

export function toConnectionRow(secrets: Secrets, selected: Selected): ConnectionRow {
  const { secretsEnc, ...row } = selected;
  const declaration = connectionTypeOf(row.type);
  return {
    ...row,
    type: row.type as ConnectionType,
    typeLabel: declaration?.label ?? row.type,
    category: declaration?.category ?? 'database',
    secretsSet: Object.keys(openSecrets(secrets, secretsEnc)).sort(),
  };
}

export async function findConnection(db: Db, secrets: Secrets, companyId: string, id: string): Promise<ConnectionRow> {
  const [row] = await selectConnections(db).where(companyConnections(companyId, eq(connections.id, id)));
  if (!row) throw notFound('Connection');
  return toConnectionRow(secrets, row);
}

/** What a connector needs of a stored connection: its type, settings and decrypted secrets. */
export async function connectionConfig(
  db: Db,
  secrets: Secrets,
  companyId: string,
  id: string,
): Promise<ConnectionConfig & { name: string; isActive: boolean }> {
  const [row] = await db
    .select({
      type: connections.type,
      settings: connections.settings,
      secretsEnc: connections.secretsEnc,
      name: connections.name,
      isActive: connections.isActive,
    })
    .from(connections)
    .where(companyConnections(companyId, eq(connections.id, id)));
  if (!row) throw notFound('Connection');
  return {
    companyId,
    type: row.type as ConnectionType,
    settings: row.settings,
    secrets: openSecrets(secrets, row.secretsEnc),
    name: row.name,
    isActive: row.isActive,
  };
}

// ---- Source/destination pairs ---------------------------------------------------------------------

const sources = alias(connections, 'pair_sources');
const destinations = alias(connections, 'pair_destinations');

export function selectPairs(db: Db) {
  return db
    .select({
      id: sourceDestinations.id,
      name: sourceDestinations.name,
      sourceId: sourceDestinations.sourceId,
      sourceName: sources.name,
      sourceType: sources.type,
      sourceActive: sources.isActive,
      destinationId: sourceDestinations.destinationId,
      destinationName: destinations.name,
      destinationType: destinations.type,
      destinationActive: destinations.isActive,
      isActive: sourceDestinations.isActive,
      createdAt: sourceDestinations.createdAt,
      updatedAt: sourceDestinations.updatedAt,
    })
    .from(sourceDestinations)
    .innerJoin(sources, and(eq(sources.companyId, sourceDestinations.companyId), eq(sources.id, sourceDestinations.sourceId)))
    .innerJoin(
      destinations,
      and(eq(destinations.companyId, sourceDestinations.companyId), eq(destinations.id, sourceDestinations.destinationId)),
    )
    .$dynamic();
}

export type PairRow = Awaited<ReturnType<ReturnType<typeof selectPairs>['execute']>>[number];

export const companyPairs = (companyId: string, extra?: SQL) => and(eq(sourceDestinations.companyId, companyId), extra)!;

export const pairsOfConnection = (companyId: string, connectionId: string) =>
  companyPairs(companyId, or(eq(sourceDestinations.sourceId, connectionId), eq(sourceDestinations.destinationId, connectionId)));

export async function findPair(db: Db, companyId: string, id: string): Promise<PairRow | undefined> {
  const [row] = await selectPairs(db).where(companyPairs(companyId, eq(sourceDestinations.id, id)));
  return row;
}

/** The connections of these ids that belong to the company, by id. */
export async function connectionsByIds(db: Db, companyId: string, ids: string[]) {
  const rows = await db
    .select({
      id: connections.id,
      name: connections.name,
      type: connections.type,
      isSource: connections.isSource,
      isDestination: connections.isDestination,
    })
    .from(connections)
    .where(companyConnections(companyId, inArray(connections.id, ids)));
  return new Map(rows.map((row) => [row.id, row]));
}
