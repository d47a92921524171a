import { useMemo } from 'react';
import { SimpleForm, useRecordContext, useResourceContext } from 'react-admin';
import { FormToolbar } from '../../src/framework/form/DeclaredForm';
import { adminUserEditSchema } from '../../common/schemas/users';
import { DeclaredEdit, FieldInput, formFields, useDeclaration, zodResolver } from '../../src/framework';
import { useDeclaredSave } from '../../src/framework/form/useDeclaredSave';
import { useUsernameFreeCheck } from './hooks';
import { withUsernameCheck } from './schemas';
import type { User } from './types';
import { UsernameInput } from './UsernameInput';

/**
 * The admin's edit of a user: the declared edit fields, with the username checked live against
 * the server (and again, blocking, on submit). Saved through the declaration's update route, so
 * only the fields that changed are sent.
 */
function UserEditForm() {
  const declaration = useDeclaration();
  const resource = useResourceContext()!;
  const record = useRecordContext<User>();
  const fields = useMemo(() => formFields(declaration, 'edit'), [declaration]);
  const initial = useMemo(
    () =>
      record
        ? {
            ...record,
            ...Object.fromEntries(fields.filter((field) => field.fromRecord).map((field) => [field.source, field.fromRecord!(record)])),
          }
        : record,
    [record, fields],
  );
  const isFree = useUsernameFreeCheck({ kind: 'account', userId: record?.id });
  const resolver = useMemo(() => zodResolver(withUsernameCheck(adminUserEditSchema, isFree, record?.username)), [isFree, record?.username]);
  const save = useDeclaredSave(
    'edit',
    initial,
    useMemo(() => fields.map((field) => field.source), [fields]),
  );
  if (!record) return null;
  return (
    <SimpleForm
      record={initial}
      resolver={resolver}
      onSubmit={save}
      toolbar={<FormToolbar mode="edit" />}
      noValidate
      warnWhenUnsavedChanges
    >
      {fields.map((field) =>
        field.source === 'username' ? (
          <UsernameInput key={field.source} check={{ kind: 'account', userId: record.id }} current={record.username} />
        ) : (
          <FieldInput key={field.source} field={field} resource={resource} />
        ),
      )}
    </SimpleForm>
  );
}

export default function UserEdit() {
  return (
    <DeclaredEdit>
      <UserEditForm />
    </DeclaredEdit>
  );
}
