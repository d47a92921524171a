import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { z } from 'zod';
import {
  CONNECTION_TYPE_CATALOGUE,
  connectionTypeOf,
  parseSettings,
  type ConnectionTypeDeclaration,
  type SettingsFormDeclaration,
} from '../../common/connections';
import { connectionName, createConnectionBody, updateConnectionBody } from '../../common/schemas/connections';
import { zodResolver } from '../../src/framework/zodResolver';
import type { Connection } from './types';

/**
 * The connection form's rules, as pure functions: its starting values per type, its validation
 * (the fields, then the type's declared settings by the shared `parseSettings`), and what an
 * edit sends.
 */

export interface ConnectionFormValues {
  type?: string;
  name?: string;
  description?: string | null;
  workspaceId?: string | null;
  isSource?: boolean;
  isDestination?: boolean;
  settings?: Record<string, unknown>;
}

/**
 * The fields besides the settings, by the server's own bodies (common/schemas/connections.ts).
 * Those are strict about unknown keys; a form also holds the record's other fields, so the form
 * takes their rules without that. An edit keeps a name (the body may leave it out, the form may
 * not empty it) and cannot change the type.
 */
const FIELD_RULES = {
  create: z.object(createConnectionBody.omit({ settings: true }).shape),
  edit: z.object(updateConnectionBody.omit({ settings: true }).shape).extend({ name: connectionName }),
};

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The settings a type starts with: its declared defaults. */
export function defaultSettings(declaration: Pick<ConnectionTypeDeclaration, 'settings'>): Record<string, unknown> {
  return Object.fromEntries(
    declaration.settings.filter((setting) => setting.default !== undefined).map((setting) => [setting.key, setting.default]),
  );
}

/** The roles a type allows start as: a source when it can be one; never a destination unasked. */
function startingRoles(declaration: Pick<ConnectionTypeDeclaration, 'roles'>): Pick<ConnectionFormValues, 'isSource' | 'isDestination'> {
  return {
    isSource: declaration.roles.includes('source') ? true : undefined,
    isDestination: declaration.roles.includes('destination') ? false : undefined,
  };
}

/** A new connection's form, of a type chosen already (a link may name it) or not yet. */
export function createDefaults(type?: string | null): ConnectionFormValues {
  const declaration = type ? connectionTypeOf(type) : undefined;
  if (!declaration) return { type: '', settings: {} };
  return { type: declaration.type, settings: defaultSettings(declaration), ...startingRoles(declaration) };
}

/** What the form holds once another type is chosen: that type's defaults and roles, the rest kept. */
export function typeChanged(
  declaration: Pick<ConnectionTypeDeclaration, 'settings' | 'roles'>,
): Pick<ConnectionFormValues, 'settings' | 'isSource' | 'isDestination'> {
  return { settings: defaultSettings(declaration), ...startingRoles(declaration) };
}

/** The form's values of this type's settings only, with blanks left blank. */
export function declaredSettings(
  declaration: Pick<ConnectionTypeDeclaration, 'settings'>,
  values: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const known = new Set(declaration.settings.map((setting) => setting.key));
  return Object.fromEntries(Object.entries(values ?? {}).filter(([key]) => known.has(key)));
}

/** The values `when` is judged by: blank settings count as their defaults (as `parseSettings` does). */
export function valuesWithDefaults(
  declaration: Pick<ConnectionTypeDeclaration, 'settings'>,
  values: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return Object.fromEntries(
    declaration.settings.map((setting) => [setting.key, isBlank(values?.[setting.key]) ? setting.default : values?.[setting.key]]),
  );
}

/** `parseSettings` problems (`settings.port: must be at most 65535`) by setting key. */
export function problemsByKey(problems: readonly string[]): Record<string, string> {
  const byKey: Record<string, string> = {};
  for (const problem of problems) {
    const match = /^settings\.([\w-]+): (.+)$/.exec(problem);
    if (match && !byKey[match[1]]) byKey[match[1]] = match[2];
  }
  return byKey;
}

export type SettingsCheck = { ok: true; settings: Record<string, unknown> } | { ok: false; problems: Record<string, string> };

/**
 * The settings as the body carries them, checked by the type's declarations: plain and secret
 * ones together, a secret left blank absent (kept as stored when `keptSecrets` names it).
 */
export function checkSettings(
  declaration: SettingsFormDeclaration,
  values: Record<string, unknown> | undefined,
  keptSecrets: ReadonlySet<string>,
): SettingsCheck {
  const parsed = parseSettings(declaration, declaredSettings(declaration, values), keptSecrets);
  if (!parsed.ok) return { ok: false, problems: problemsByKey(parsed.problems) };
  return { ok: true, settings: { ...parsed.value.settings, ...parsed.value.secrets } };
}

/** Only the roles a type allows travel; the others are left out of the body. */
function allowedRoles(
  declaration: Pick<ConnectionTypeDeclaration, 'roles'>,
  values: FieldValues,
): Pick<ConnectionFormValues, 'isSource' | 'isDestination'> {
  return {
    isSource: declaration.roles.includes('source') ? Boolean(values.isSource) : undefined,
    isDestination: declaration.roles.includes('destination') ? Boolean(values.isDestination) : undefined,
  };
}

/**
 * Validates the form before anything is sent: the fields by their rules, the settings by the
 * type's declarations (each problem on its setting's input): `given`, or the catalogue's by `type`. The values it passes on are the
 * body's: settings parsed (numbers as numbers, defaults filled, blank secrets left out).
 */
export function connectionResolver(
  mode: 'create' | 'edit',
  keptSecrets: ReadonlySet<string>,
  given?: SettingsFormDeclaration,
): Resolver<FieldValues> {
  const fields = zodResolver(FIELD_RULES[mode]);
  return async (values, context, options) => {
    const result = await fields(values, context, options);
    const errors: Record<string, unknown> = { ...result.errors };
    // The declaration the form was drawn from when the caller gave one (SettingsInputs' `declaration`).
    const declaration = given ?? connectionTypeOf(String(values.type ?? ''));
    let settings: Record<string, unknown> | undefined;
    if (declaration) {
      const checked = checkSettings(declaration, values.settings as Record<string, unknown> | undefined, keptSecrets);
      if (checked.ok) settings = checked.settings;
      else
        errors.settings = Object.fromEntries(
          Object.entries(checked.problems).map(([key, message]) => [key, { type: 'settings', message }]),
        );
    }
    if (Object.keys(errors).length > 0 || !declaration) return { values: {}, errors: errors as FieldErrors };
    return { values: { ...result.values, ...allowedRoles(declaration, values), settings }, errors: {} };
  };
}

function withoutBlanks(settings: Record<string, unknown> | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings ?? {}).filter(([, value]) => !isBlank(value)));
}

/** Whether checked settings differ from the stored ones: a plain setting changed, or a secret typed. */
export function settingsChanged(
  declaration: ConnectionTypeDeclaration,
  settings: Record<string, unknown>,
  record: Pick<Connection, 'settings'>,
): boolean {
  const secret = new Set(declaration.settings.filter((setting) => setting.secret).map((setting) => setting.key));
  if (Object.keys(settings).some((key) => secret.has(key))) return true;
  const now = withoutBlanks(settings);
  const stored = withoutBlanks(record.settings);
  const keys = new Set([...Object.keys(now), ...Object.keys(stored)]);
  return [...keys].some((key) => JSON.stringify(now[key]) !== JSON.stringify(stored[key]));
}

/**
 * An edit's values, where those left as they were are the record's own, so that the update
 * sends only what changed: an untouched description or workspace stays out of the body, and so
 * do settings that are the stored ones with no secret typed.
 */
export function editValues(values: FieldValues, record: Connection): FieldValues {
  const declaration = connectionTypeOf(record.type);
  const description = (values.description ?? '') === (record.description ?? '') ? record.description : (values.description ?? '');
  const workspaceId = (values.workspaceId ?? null) === (record.workspaceId ?? null) ? record.workspaceId : (values.workspaceId ?? null);
  const settings = declaration && !settingsChanged(declaration, values.settings ?? {}, record) ? record.settings : values.settings;
  // A role the type cannot play (Slack, Bitbucket) is left as stored: blank, it would travel as null, which the update refuses.
  const isSource = declaration?.roles.includes('source') === false ? record.isSource : values.isSource;
  const isDestination = declaration?.roles.includes('destination') === false ? record.isDestination : values.isDestination;
  return { ...values, description, workspaceId, settings, isSource, isDestination };
}

/** The fields a server 400 may name (`name: …`, `settings.port: …`), to mark the input as well as raise the alert. */
export const FORM_FIELDS: readonly string[] = [
  'name',
  'type',
  'description',
  'workspaceId',
  'isSource',
  'isDestination',
  ...new Set(CONNECTION_TYPE_CATALOGUE.flatMap((declaration) => declaration.settings.map((setting) => `settings.${setting.key}`))),
];
