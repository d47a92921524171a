import PersonAddIcon from '@mui/icons-material/PersonAddAlt';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useMemo, useState } from 'react';
import { Form, PasswordInput, SaveButton, SelectInput, TextInput, useRefresh, useTranslate } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { demoUserSchema, type DemoUserInput } from '../../common/schemas/users';
import { alerts } from '../../providers/alerts';
import { getStoredUser } from '../../providers/storage';
import { usePasswordPolicy, withPasswordPolicy } from '../../src/app/passwordPolicy';
import { passwordRulesHint } from '../../src/auth/passwordRules';
import { useChoices, zodResolver } from '../../src/framework';
import { failureText } from '../../src/framework/feedback';
import { createDemoUser } from './api';
import { useUsernameFreeCheck } from './hooks';
import { withUsernameCheck } from './schemas';
import { UsernameInput } from './UsernameInput';

const DEMO_FIELDS = ['email', 'username', 'firstName', 'lastName', 'password', 'roleId'] as const;
const ROLES = { route: '/roles/active' } as const;

/** A server 400/409 naming one of the form's fields is shown on it as well as in the alert. */
function fieldError(message: string): Record<string, string> | undefined {
  const match = /^(\w+): (.+)$/.exec(message);
  return match && (DEMO_FIELDS as readonly string[]).includes(match[1]) ? { [match[1]]: match[2] } : undefined;
}

function DemoAccountForm({ onDone }: { onDone: () => void }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const { choices: roles, isPending } = useChoices(ROLES);
  const isFree = useUsernameFreeCheck({ kind: 'unused' });
  const passwordPolicy = usePasswordPolicy();
  const resolver = useMemo(
    () => zodResolver(withPasswordPolicy(withUsernameCheck(demoUserSchema, isFree), passwordPolicy)),
    [isFree, passwordPolicy],
  );

  const submit = async (values: FieldValues) => {
    alerts.loading();
    try {
      const body = Object.fromEntries(
        DEMO_FIELDS.filter((name) => values[name] !== undefined && values[name] !== null).map((name) => [name, values[name]]),
      );
      const result = await createDemoUser(body as DemoUserInput);
      alerts.success(result.message ?? translate('app.form.created'));
      refresh();
      onDone();
      return undefined;
    } catch (error) {
      const message = failureText(error);
      alerts.error(message);
      return fieldError(message);
    }
  };

  return (
    <Form resolver={resolver} onSubmit={submit} noValidate>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', minWidth: { sm: 420 } }}>
        <TextInput source="email" type="email" label="resources.users.fields.email" autoComplete="off" />
        <UsernameInput check={{ kind: 'unused' }} />
        <TextInput source="firstName" label="resources.users.fields.firstName" />
        <TextInput source="lastName" label="resources.users.fields.lastName" />
        <PasswordInput
          source="password"
          label="resources.users.demo.password"
          autoComplete="new-password"
          helperText={passwordRulesHint(passwordPolicy, (key, params) => translate(key, params))}
        />
        <SelectInput
          source="roleId"
          label="resources.users.fields.roleId"
          choices={roles ?? []}
          translateChoice={false}
          isPending={isPending}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onDone}>{translate('ra.action.cancel')}</Button>
        <SaveButton label="resources.users.demo.create" icon={<PersonAddIcon />} />
      </DialogActions>
    </Form>
  );
}

/**
 * Demo and test accounts (admins): made active at once with a password, no invitation mail.
 * The username must be unused in the company (checked as it is typed, and again on submit).
 */
export function DemoAccountButton() {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!getStoredUser()?.isAdmin) return null;
  const title = translate('resources.users.demo.title');
  return (
    <>
      <Button size="small" startIcon={<PersonAddIcon />} onClick={() => setOpen(true)}>
        {title}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="demo-account-title">
        <DialogTitle id="demo-account-title">{title}</DialogTitle>
        {open && <DemoAccountForm onDone={() => setOpen(false)} />}
      </Dialog>
    </>
  );
}
