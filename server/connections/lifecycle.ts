import type { FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import {
  connectionTypeOf,
  parseSettings,
  settingApplies,
  type ConnectionType,
  type ConnectionTypeDeclaration,
} from '../../common/connections';
import type { CreateConnectionBody, UpdateConnectionBody } from '../../common/schemas/connections';
import type { AuthContext } from '../auth/guard';
import type { Secrets } from '../auth/secrets';
import { within } from '../connectors/registry';
import type { ConnectorContext, ConnectorRegistry } from '../connectors/registry';
import { ConnectorError, type ConnectionConfig } from '../connectors/types';
import type { Db } from '../db/client';
import { connections } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { audited, auditedCreate, fieldChanges, unlessTaken } from '../platform/audited';
import { liveWorkspaceId } from '../workspaces/records';
import { checkConnectionReach } from './reach-check';
import { companyConnections, findConnection, openSecrets, sealSecrets, type ConnectionRow } from './records';

/**
 * How a connection is made, changed and tested, whichever route asks (`POST /connections`, `PUT
 * /connection/{id}`, `POST /connection/{id}/configure`, the marketplace's `POST
 * /marketplace/configure`): one set of checks, one way of sealing secrets, one audit trail and one
 * wording of every refusal.
 */

export const CONNECTION_NAME_TAKEN = 'name: a connection with this name already exists';
/** How long a test may take before it counts as failed. */
export const TEST_TIMEOUT_MS = 15_000;

/** What a connection may be, by its type: a Slack connection is neither a source nor a destination. */
export function roleProblems(declaration: ConnectionTypeDeclaration, isSource: boolean, isDestination: boolean): string | null {
  if (isSource && !declaration.roles.includes('source')) return `isSource: a ${declaration.label} connection cannot be a source`;
  if (isDestination && !declaration.roles.includes('destination'))
    return `isDestination: a ${declaration.label} connection cannot be a destination`;
  return null;
}

/** Settings checked against the type's declarations; a 400 naming every problem. */
export function settingsOrThrow(
  declaration: ConnectionTypeDeclaration,
  values: Record<string, unknown>,
  kept: ReadonlySet<string> = new Set(),
) {
  const parsed = parseSettings(declaration, values, kept);
  if (!parsed.ok) throw badRequest(parsed.problems.join('; '));
  return parsed.value;
}

/**
 * The secrets of an edited connection: a secret given replaces the stored one, one left blank keeps
 * it, and one whose setting no longer applies (a Slack webhook URL once the mode is "bot") is dropped.
 */
export function keptSecrets(
  declaration: ConnectionTypeDeclaration,
  settings: Record<string, unknown>,
  stored: Record<string, string>,
  given: Record<string, string>,
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const setting of declaration.settings) {
    if (!setting.secret || !settingApplies(setting, settings)) continue;
    const value = given[setting.key] ?? stored[setting.key];
    if (value !== undefined) kept[setting.key] = value;
  }
  return kept;
}

/** Which secret settings changed, for the audit: their names only, never their values. */
export function secretChanges(before: Record<string, string>, after: Record<string, string>): Record<string, string> {
  const changed: Record<string, string> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (before[key] !== after[key]) changed[key] = '(changed)';
  }
  return changed;
}

export interface ConnectionStore {
  db: Db;
  secrets: Secrets;
  /** What the server lets companies reach: a connection naming anything else is refused before it is stored. */
  reach: ConnectorContext;
}

/**
 * Makes a connection of the caller's company from a create body (already checked by
 * `createConnectionBody`): the roles its type allows, its settings by their declarations, a live
 * workspace, and only what this server lets companies reach (reach-check.ts); secrets sealed;
 * audited in the same transaction. `auditAfter` adds to what the audit entry records (where the
 * connection was made from). Refusals are 400s naming the field, and a name in use is the 409
 * `CONNECTION_NAME_TAKEN`; nothing is stored then.
 */
export async function createConnection(
  { db, secrets, reach }: ConnectionStore,
  request: FastifyRequest,
  auth: AuthContext,
  body: CreateConnectionBody,
  auditAfter: Record<string, unknown> = {},
): Promise<ConnectionRow> {
  const declaration = connectionTypeOf(body.type)!;
  const isSource = body.isSource ?? declaration.roles.includes('source');
  const isDestination = body.isDestination ?? false;
  const roleProblem = roleProblems(declaration, isSource, isDestination);
  if (roleProblem) throw badRequest(roleProblem);
  const { settings, secrets: secretValues } = settingsOrThrow(declaration, body.settings);
  await checkConnectionReach(reach, { companyId: auth.companyId, type: body.type, settings, secrets: secretValues });
  const workspaceId = await liveWorkspaceId(db, auth.companyId, body.workspaceId);
  const after = {
    name: body.name,
    type: body.type,
    isSource,
    isDestination,
    workspaceId,
    settings,
    ...secretChanges({}, secretValues),
    ...auditAfter,
  };
  const id = await unlessTaken(CONNECTION_NAME_TAKEN, () =>
    auditedCreate(db, request, { companyId: auth.companyId, model: 'connection', after }, async (tx) => {
      const [created] = await tx
        .insert(connections)
        .values({
          companyId: auth.companyId,
          name: body.name,
          description: body.description ?? '',
          type: body.type,
          workspaceId,
          isSource,
          isDestination,
          settings,
          secretsEnc: sealSecrets(secrets, secretValues),
          createdBy: auth.userId,
        })
        .returning({ id: connections.id });
      return created.id;
    }),
  );
  return findConnection(db, secrets, auth.companyId, id);
}

/**
 * Changes a connection of the caller's company from an update body (already checked by
 * `updateConnectionBody`), by the same rules as `createConnection`: a secret left blank keeps the
 * stored one, and new settings are checked for what they reach. Audited with the fields that
 * change and the names of the secrets that do; a body that changes nothing writes nothing. Gives
 * the connection as it then is, and whether it changed.
 */
export async function updateConnection(
  { db, secrets, reach }: ConnectionStore,
  request: FastifyRequest,
  auth: AuthContext,
  id: string,
  body: UpdateConnectionBody,
): Promise<{ row: ConnectionRow; changed: boolean }> {
  const [stored] = await db
    .select()
    .from(connections)
    .where(companyConnections(auth.companyId, eq(connections.id, id)));
  if (!stored) throw notFound('Connection');
  const declaration = connectionTypeOf(stored.type)!;
  const isSource = body.isSource ?? stored.isSource;
  const isDestination = body.isDestination ?? stored.isDestination;
  const roleProblem = roleProblems(declaration, isSource, isDestination);
  if (roleProblem) throw badRequest(roleProblem);
  const storedSecrets = openSecrets(secrets, stored.secretsEnc);
  const next = body.settings
    ? settingsOrThrow(declaration, body.settings, new Set(Object.keys(storedSecrets)))
    : { settings: stored.settings, secrets: {} as Record<string, string> };
  const mergedSecrets = body.settings ? keptSecrets(declaration, next.settings, storedSecrets, next.secrets) : storedSecrets;
  if (body.settings) {
    const type = stored.type as ConnectionType;
    await checkConnectionReach(reach, { companyId: auth.companyId, type, settings: next.settings, secrets: mergedSecrets });
  }
  const workspaceId = body.workspaceId === undefined ? stored.workspaceId : await liveWorkspaceId(db, auth.companyId, body.workspaceId);

  const before = {
    name: stored.name,
    description: stored.description,
    workspaceId: stored.workspaceId,
    isSource: stored.isSource,
    isDestination: stored.isDestination,
    settings: stored.settings,
  };
  const after = {
    name: body.name ?? stored.name,
    description: body.description ?? stored.description,
    workspaceId,
    isSource,
    isDestination,
    settings: next.settings,
  };
  const { before: was, after: now } = fieldChanges(before, after);
  const secretsChanged = secretChanges(storedSecrets, mergedSecrets);
  const changed = Object.keys(now).length > 0 || Object.keys(secretsChanged).length > 0;
  if (changed) {
    await unlessTaken(CONNECTION_NAME_TAKEN, () =>
      audited(
        db,
        request,
        (tx) =>
          tx
            .update(connections)
            .set({ ...after, secretsEnc: sealSecrets(secrets, mergedSecrets), updatedAt: new Date() })
            .where(companyConnections(auth.companyId, eq(connections.id, id))),
        {
          companyId: auth.companyId,
          model: 'connection',
          operation: 'update',
          recordId: id,
          changes: { before: was, after: { ...now, ...secretsChanged } },
        },
      ),
    );
  }
  return { row: await findConnection(db, secrets, auth.companyId, id), changed };
}

export interface TestOutcome {
  ok: boolean;
  latencyMs: number | null;
  detail: string;
  message: string;
  testedAt: Date;
}

/** Tests a connection for real within TEST_TIMEOUT_MS; a failure is an outcome in the source's own words, not an error. */
export async function runConnectionTest(connectors: ConnectorRegistry, config: ConnectionConfig): Promise<TestOutcome> {
  const testedAt = new Date();
  try {
    const result = await connectors.use(config, (connector) => within(TEST_TIMEOUT_MS, 'Connecting', connector.test()));
    return { ok: true, latencyMs: result.latencyMs, detail: result.detail, message: `Connected in ${result.latencyMs} ms`, testedAt };
  } catch (err) {
    const message = err instanceof ConnectorError ? err.message : `The test failed: ${(err as Error).message}`;
    return { ok: false, latencyMs: null, detail: '', message, testedAt };
  }
}

/** Keeps a test's outcome on the connection (its last test) and audits it. */
export async function recordConnectionTest(
  db: Db,
  request: FastifyRequest,
  companyId: string,
  id: string,
  outcome: TestOutcome,
): Promise<void> {
  await audited(
    db,
    request,
    (tx) =>
      tx
        .update(connections)
        .set({
          lastTestedAt: outcome.testedAt,
          lastTestOk: outcome.ok,
          lastTestLatencyMs: outcome.latencyMs,
          lastTestMessage: outcome.message,
        })
        .where(companyConnections(companyId, eq(connections.id, id))),
    { companyId, model: 'connection', operation: 'test', recordId: id, changes: { after: { ok: outcome.ok, message: outcome.message } } },
  );
}
