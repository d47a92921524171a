import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  DEFAULT_EMAIL_SETTINGS,
  defaultServiceSettings,
  describeSettingsIssues,
  emailSettingsChange,
  emailSettingsProblems,
  isSettingsGroup,
  serviceSettingsChange,
  SETTINGS_GROUP_LABELS,
  SETTINGS_GROUPS,
  type EmailSettings,
  type EmailSettingsChange,
  type ServiceSettings,
  type SettingsGroupId,
} from '../../common/settings';
import {
  settingsAnswer,
  settingsGroupAnswer,
  passwordPolicyAnswer,
  testMailAnswer,
  type SettingsGroup,
} from '../../common/contract/answers/settings';
import { sent, type Sent } from '../platform/answers';
import { recordAudit } from '../audit';
import { loadCaller } from '../auth/accounts';
import { requireAuth, type AuthContext } from '../auth/guard';
import { consumeRate } from '../auth/throttle';
import { companies } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { ConnectorError } from '../connectors/types';
import { emailField } from '../http/schemas';
import { changedFields } from '../users/rules';
import { sendTestMail, testMailContent } from '../settings/test-mail';
import {
  openEmailSecrets,
  passwordPolicyOf,
  readEmailSettings,
  readServiceSettings,
  sealEmailSecrets,
  writeSettingsRow,
  type SettingsRow,
} from '../settings/store';

const TAGS = ['Settings'];
const read = { policy: ['settings', 'read'] as const };
const update = { policy: ['settings', 'update'] as const };

/** Test mails one company may send in an hour. */
export const TEST_MAILS_PER_HOUR = 30;

const groupParams = z.object({ id: z.string().max(100) });
const testMailBody = z.strictObject({
  /** Where the test goes; the caller's own address when left out. */
  to: emailField.optional(),
  /** Unsaved settings laid over the stored ones (a blank password is the stored one). */
  settings: z.unknown().optional(),
});

/** How an audit entry shows the SMTP password: never its value. */
const SECRET_CHANGED = '(changed)';
const SECRET_REMOVED = '(removed)';

/** One group as GET /settings/{id} answers it (common/contract/answers/settings.ts says what each field is). */
type GroupAnswer = Sent<SettingsGroup>;

function groupParam(id: string): SettingsGroupId {
  if (!isSettingsGroup(id)) throw notFound('Settings group');
  return id;
}

/**
 * The values the service group stores in its JSON. Two-factor for everyone lives on the company
 * row; a session lifetime equal to the server's default is not stored, so that the company keeps
 * following SESSION_TTL_MINUTES should the operator change it.
 */
function storedServiceValues(values: ServiceSettings, defaultSessionMinutes: number): Record<string, unknown> {
  const { requireTwoFactor: _companyFlag, sessionLifetimeMinutes, ...stored } = values;
  return sessionLifetimeMinutes === defaultSessionMinutes ? stored : { ...stored, sessionLifetimeMinutes };
}

/** A change's fields that were given, laid over the current values. */
function laidOver<T extends object>(current: T, change: Partial<T>): T {
  const given = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
  return { ...current, ...given };
}

export async function settingsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = api.ctx;
  const { db, config, secrets } = ctx;

  const meta = (row: SettingsRow | null) => ({
    updatedAt: row?.updatedAt ?? null,
    updatedBy: row?.updatedBy ?? null,
    updatedByName: row?.updatedBy ? row.updatedByName : null,
  });

  const serviceState = (companyId: string) => readServiceSettings(db, config, companyId);
  const emailState = (companyId: string) => readEmailSettings(db, companyId);

  async function group(companyId: string, id: SettingsGroupId): Promise<GroupAnswer> {
    if (id === 'service') {
      const { row, values } = await serviceState(companyId);
      return { id, label: SETTINGS_GROUP_LABELS.service, values, defaults: defaultServiceSettings(config.sessionTtlMinutes), ...meta(row) };
    }
    const { row, values, passwordSet } = await emailState(companyId);
    return {
      id,
      label: SETTINGS_GROUP_LABELS.email,
      values: { ...values, passwordSet },
      defaults: { ...DEFAULT_EMAIL_SETTINGS, passwordSet: false },
      ...meta(row),
      instanceTransport: ctx.mailer.transport,
    };
  }

  /**
   * The email settings a body asks for, laid over the stored ones: the password given replaces the
   * stored one, a blank keeps it, and no username means no password.
   */
  async function emailChange(companyId: string, body: unknown) {
    const parsed = emailSettingsChange.safeParse(body ?? {});
    if (!parsed.success) throw badRequest(describeSettingsIssues(parsed.error));
    const { password, passwordSet: _shown, ...given } = parsed.data as EmailSettingsChange;
    const { row, values: before, passwordSet: hadPassword } = await emailState(companyId);
    const after: EmailSettings = laidOver(before, given);
    let secretsEnc = row?.secretsEnc ?? null;
    let passwordChange: string | null = null;
    let newPassword: string | undefined;
    if (!after.username) {
      if (secretsEnc) passwordChange = SECRET_REMOVED;
      secretsEnc = null;
    } else if (password) {
      newPassword = password;
      secretsEnc = sealEmailSecrets(secrets, { password });
      passwordChange = SECRET_CHANGED;
    }
    const problems = emailSettingsProblems(after, Boolean(secretsEnc));
    if (problems.length > 0) throw badRequest(problems.map((problem) => `${problem.field}: ${problem.message}`).join('; '));
    await refuseUnreachableMailServer(after);
    return { row, before, after, hadPassword, secretsEnc, passwordChange, newPassword };
  }

  /** A mail server this server does not let companies reach is refused when saved and before a test mail: never dialled. */
  async function refuseUnreachableMailServer(settings: EmailSettings) {
    if (!settings.host) return;
    try {
      await ctx.connectors.context.reach.check({ host: settings.host.replace(/^\[(.*)\]$/, '$1'), port: settings.port });
    } catch (error) {
      // A host that cannot be resolved now is not refused: the test mail says so.
      if (error instanceof ConnectorError && (error.kind === 'refused' || error.kind === 'invalid'))
        throw badRequest(`host: ${error.message}`);
    }
  }

  async function saveService(request: FastifyRequest, auth: AuthContext) {
    const parsed = serviceSettingsChange.safeParse(request.body ?? {});
    if (!parsed.success) throw badRequest(describeSettingsIssues(parsed.error));
    const { passwordPolicy, ...given } = parsed.data;
    const { values: before } = await serviceState(auth.companyId);
    const after: ServiceSettings = { ...laidOver(before, given), passwordPolicy: laidOver(before.passwordPolicy, passwordPolicy ?? {}) };
    const changes = changedFields(before, after);
    if (!changes) return;
    await db.transaction(async (tx) => {
      await writeSettingsRow(tx, auth.companyId, 'service', {
        values: storedServiceValues(after, config.sessionTtlMinutes),
        secretsEnc: null,
        updatedBy: auth.userId,
      });
      if (after.requireTwoFactor !== before.requireTwoFactor) {
        await tx
          .update(companies)
          .set({ requireTwoFactor: after.requireTwoFactor, updatedAt: new Date() })
          .where(eq(companies.id, auth.companyId));
      }
      await recordAudit(tx, request, { companyId: auth.companyId, model: 'settings', operation: 'update', recordId: 'service', changes });
    });
  }

  async function saveEmail(request: FastifyRequest, auth: AuthContext) {
    const change = await emailChange(auth.companyId, request.body);
    const changes = changedFields(change.before, change.after) ?? { before: {}, after: {} };
    if (change.passwordChange) {
      changes.before.password = change.hadPassword ? '(set)' : '(not set)';
      changes.after.password = change.passwordChange;
    }
    if (Object.keys(changes.after).length === 0) return;
    await db.transaction(async (tx) => {
      await writeSettingsRow(tx, auth.companyId, 'email', { values: change.after, secretsEnc: change.secretsEnc, updatedBy: auth.userId });
      await recordAudit(tx, request, { companyId: auth.companyId, model: 'settings', operation: 'update', recordId: 'email', changes });
    });
  }

  api.get(
    '/settings',
    { config: read, schema: { summary: "The company's service and email settings", tags: TAGS, response: { 200: sent(settingsAnswer) } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Settings', data: await Promise.all(SETTINGS_GROUPS.map((id) => group(companyId, id))) };
    },
  );

  /** Any signed-in user: the rules the console's password forms show (the sign-in screens get them with their link checks). */
  api.get(
    '/settings/password-policy',
    { schema: { summary: "The company's password rules", tags: TAGS, response: { 200: sent(passwordPolicyAnswer) } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Password policy', data: await passwordPolicyOf(db, companyId) };
    },
  );

  api.get(
    '/settings/:id',
    {
      config: read,
      schema: { summary: 'One group of settings', tags: TAGS, params: groupParams, response: { 200: sent(settingsGroupAnswer) } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const id = groupParam(request.params.id);
      return { message: SETTINGS_GROUP_LABELS[id], data: await group(companyId, id) };
    },
  );

  api.put(
    '/settings/:id',
    {
      config: update,
      schema: { summary: 'Change a group of settings', tags: TAGS, params: groupParams, response: { 200: sent(settingsGroupAnswer) } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const id = groupParam(request.params.id);
      if (id === 'service') await saveService(request, auth);
      else await saveEmail(request, auth);
      return { message: `${SETTINGS_GROUP_LABELS[id]} saved`, data: await group(auth.companyId, id) };
    },
  );

  api.post(
    '/settings/email/test',
    {
      config: update,
      schema: {
        summary: 'Send a test mail through the email settings',
        tags: TAGS,
        body: testMailBody,
        response: { 200: sent(testMailAnswer) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const change = await emailChange(auth.companyId, request.body.settings);
      const settings = change.after;
      if (!settings.host) throw badRequest('host: is required to send a test mail (the SMTP server to send it through)');
      await consumeRate(db, `settings-test-mail:${auth.companyId}`, TEST_MAILS_PER_HOUR, 3600, 'test mails from this company');
      let password = change.newPassword;
      if (password === undefined && change.secretsEnc) {
        try {
          password = openEmailSecrets(secrets, change.secretsEnc).password;
        } catch {
          throw badRequest('password: the saved password cannot be read (was the instance secret changed?); enter it again');
        }
      }
      const { user, company } = await loadCaller(db, auth);
      const to = request.body.to ?? user.email;
      const content = testMailContent({
        companyName: company.name,
        senderName: `${user.firstName} ${user.lastName}`.trim() || user.email,
        server: `${settings.host}:${settings.port}`,
        sentAt: new Date(),
      });
      const outcome = await sendTestMail({ ...settings, password }, to, content, api.ctx.connectors.context.reach);
      await recordAudit(db, request, {
        companyId: auth.companyId,
        model: 'settings',
        operation: 'test_email',
        recordId: 'email',
        changes: { to, server: outcome.server, ok: outcome.ok, detail: outcome.detail, unsaved: request.body.settings !== undefined },
      });
      const message = outcome.ok
        ? `A test mail was sent to ${to} through ${outcome.server}`
        : `The test mail could not be sent through ${outcome.server}: ${outcome.detail}`;
      return { message, data: outcome };
    },
  );
}
