import type { ReactNode } from 'react';
import { EditButton, Show, SimpleShowLayout, TopToolbar } from 'react-admin';
import { useDeclaration } from '../DeclarationContext';
import { capabilitiesOf, fieldLabelKey, showFields } from '../declaration';
import { FieldValue } from '../FieldValue';
import { ActivationToggle } from '../list/ActivationToggle';

function ShowActions() {
  const declaration = useDeclaration();
  return (
    <TopToolbar>
      {declaration.actions?.record?.map((Action, index) => <Action key={index} />)}
      {capabilitiesOf(declaration).edit && <EditButton />}
    </TopToolbar>
  );
}

/** A declared resource's record, field by field; `children` add lines after the declared ones. */
export function DeclaredShow({ children }: { children?: ReactNode }) {
  const declaration = useDeclaration();
  const can = capabilitiesOf(declaration);
  return (
    <Show actions={<ShowActions />}>
      <SimpleShowLayout>
        {showFields(declaration).map((field) =>
          can.activate && field.source === declaration.activation?.field ? (
            <ActivationToggle key={field.source} field={field.source} label={fieldLabelKey(declaration.name, field)} source={field.source} />
          ) : (
            <FieldValue key={field.source} field={field} source={field.source} label={fieldLabelKey(declaration.name, field)} />
          ),
        )}
        {children}
      </SimpleShowLayout>
    </Show>
  );
}
