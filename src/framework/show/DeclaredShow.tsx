import type { ReactNode } from 'react';
import { EditButton, Show, SimpleShowLayout, TopToolbar } from 'react-admin';
import { useDeclaration } from '../DeclarationContext';
import { capabilitiesOf, fieldLabelKey, showFields } from '../declaration';
import { FieldValue } from '../FieldValue';
import { ActivationToggle } from '../list/ActivationToggle';

function ShowActions({ extra }: { extra?: ReactNode }) {
  const declaration = useDeclaration();
  return (
    <TopToolbar>
      {declaration.actions?.record?.map((Action, index) => (
        <Action key={index} />
      ))}
      {extra}
      {capabilitiesOf(declaration).edit && <EditButton />}
    </TopToolbar>
  );
}

/**
 * A declared resource's record, field by field; `children` add lines after the declared ones,
 * `actions` buttons of the page alone after the declared record actions.
 */
export function DeclaredShow({ children, actions }: { children?: ReactNode; actions?: ReactNode }) {
  const declaration = useDeclaration();
  const can = capabilitiesOf(declaration);
  return (
    <Show actions={<ShowActions extra={actions} />}>
      <SimpleShowLayout>
        {showFields(declaration).map((field) =>
          can.activate && field.source === declaration.activation?.field ? (
            <ActivationToggle
              key={field.source}
              field={field.source}
              label={fieldLabelKey(declaration.name, field)}
              source={field.source}
            />
          ) : (
            <FieldValue key={field.source} field={field} source={field.source} label={fieldLabelKey(declaration.name, field)} />
          ),
        )}
        {children}
      </SimpleShowLayout>
    </Show>
  );
}
