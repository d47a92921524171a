import { Box, Divider, Tooltip, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { TextInput, useTranslate } from 'react-admin';
import { useController, useFormState } from 'react-hook-form';
import { ApiError } from '../../providers/http';
import { failureText } from '../../src/framework/feedback';
import { LoadedPageChecklist } from './PageChecklist';
import { LoadedPolicyMatrix } from './PolicyMatrix';
import { renameRefusal, useRefusalText } from './RoleActions';
import type { PolicyEntry, Role } from './types';

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box component="section" aria-label={translate(title)} sx={{ width: '100%', mt: 2 }}>
      <Divider sx={{ mb: 2 }} />
      <Typography variant="h6" component="h2">
        {translate(title)}
      </Typography>
      {hint && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(hint)}
        </Typography>
      )}
      {children}
    </Box>
  );
}

function PoliciesInput({ isAdmin }: { isAdmin: boolean }) {
  const { field } = useController({ name: 'policies' });
  const { isSubmitting } = useFormState();
  return (
    <LoadedPolicyMatrix
      value={(field.value as PolicyEntry[] | undefined) ?? []}
      onChange={field.onChange}
      isAdmin={isAdmin}
      disabled={isSubmitting}
    />
  );
}

function PagesInput({ isAdmin }: { isAdmin: boolean }) {
  const { field } = useController({ name: 'pageIds' });
  const { isSubmitting } = useFormState();
  return (
    <LoadedPageChecklist
      value={(field.value as string[] | undefined) ?? []}
      onChange={field.onChange}
      roleIsAdmin={isAdmin}
      disabled={isSubmitting}
    />
  );
}

function NameInput({ role }: { role?: Role }) {
  const refusalText = useRefusalText();
  const refusal = renameRefusal(role);
  const input = (
    <TextInput
      source="name"
      label="resources.roles.fields.name"
      disabled={refusal !== null}
      helperText={refusal ? refusalText(refusal) : undefined}
    />
  );
  if (!refusal) return input;
  return (
    <Tooltip title={refusalText(refusal)} placement="bottom-start">
      <Box sx={{ width: '100%' }} data-refusal={refusal.key}>
        {input}
      </Box>
    </Tooltip>
  );
}

/**
 * The role editor's inputs (create and edit): name and description, the policy matrix and the
 * page list, all in one react-hook-form form so one Save sends them and the zod schema sees
 * them together.
 */
export function RoleEditorInputs({ role }: { role?: Role }) {
  const isAdmin = role?.isAdmin === true;
  return (
    <>
      <NameInput role={role} />
      <TextInput source="description" label="resources.roles.fields.description" multiline minRows={2} />
      <Section title="resources.roles.matrix.title" hint="resources.roles.matrix.hint">
        <PoliciesInput isAdmin={isAdmin} />
      </Section>
      <Section title="resources.roles.pages.title" hint="resources.roles.pages.hint">
        <PagesInput isAdmin={isAdmin} />
      </Section>
    </>
  );
}

const FORM_FIELDS = ['name', 'description'];

/**
 * A server refusal marked on the input it is about: a message naming the field (`"name: …"`),
 * or a 409, which for roles is always the name being taken.
 */
export function fieldErrorsOf(error: unknown): Record<string, string> | undefined {
  const message = failureText(error);
  const match = /^(\w+): (.+)$/.exec(message);
  if (match && FORM_FIELDS.includes(match[1])) return { [match[1]]: match[2] };
  if (error instanceof ApiError && error.status === 409) return { name: message };
  return undefined;
}
