import type { ReactNode } from 'react';
import { SaveButton, SimpleForm, Toolbar, type RaRecord, type SimpleFormProps } from 'react-admin';
import { FormProblem } from './DeclaredForm';

export interface CheckedFormProps {
  /** Checks every value before anything is sent (a zod schema through `zodResolver`). */
  resolver: SimpleFormProps['resolver'];
  onSubmit: SimpleFormProps['onSubmit'];
  /** The values the form starts from: a record being edited, or a new one's defaults. */
  record?: Partial<RaRecord>;
  defaultValues?: SimpleFormProps['defaultValues'];
  /** The save button's label (a translation key); "Save" by default. */
  saveLabel?: string;
  children: ReactNode;
}

/**
 * A form whose schema is the one judge of its values, with its own messages (`noValidate`: the
 * browser's checks stay out of it): a save button, and beside it the problem of the form as a
 * whole. The hand-made forms (roles, workflows, connections, table registration) share it.
 */
export function CheckedForm({ resolver, onSubmit, record, defaultValues, saveLabel, children }: CheckedFormProps) {
  return (
    <SimpleForm
      record={record}
      defaultValues={defaultValues}
      resolver={resolver}
      onSubmit={onSubmit}
      noValidate
      warnWhenUnsavedChanges
      toolbar={
        <Toolbar>
          <SaveButton label={saveLabel} />
          <FormProblem />
        </Toolbar>
      }
    >
      {children}
    </SimpleForm>
  );
}
