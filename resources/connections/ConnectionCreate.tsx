import { useMemo } from 'react';
import { Create, useRecordFromLocation } from 'react-admin';
import { useDeclaredSave } from '../../src/framework/form/useDeclaredSave';
import { ConnectionForm } from './ConnectionForm';
import { createDefaults, FORM_FIELDS } from './form';

/**
 * A new connection. A link may name its type (`/connections/create?source={"type":"slack"}`,
 * as the integrations card does): the form then starts on that type's settings.
 */
export default function ConnectionCreate() {
  const fromLocation = useRecordFromLocation();
  const type = typeof fromLocation?.type === 'string' ? fromLocation.type : null;
  const defaultValues = useMemo(() => createDefaults(type), [type]);
  const save = useDeclaredSave('create', undefined, FORM_FIELDS);
  return (
    <Create redirect={false}>
      <ConnectionForm mode="create" onSubmit={save} defaultValues={defaultValues} />
    </Create>
  );
}
