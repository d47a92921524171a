import type { ReactNode } from 'react';
import { Create, Edit, ShowButton, TopToolbar } from 'react-admin';
import { useDeclaration } from '../DeclarationContext';
import { capabilitiesOf } from '../declaration';
import { DeclaredForm } from './DeclaredForm';

function EditActions() {
  const declaration = useDeclaration();
  return (
    <TopToolbar>
      {declaration.actions?.record?.map((Action, index) => (
        <Action key={index} />
      ))}
      {capabilitiesOf(declaration).show && <ShowButton />}
    </TopToolbar>
  );
}

/** A declared resource's edit view; `children` replaces the form (an override keeping the frame). */
export function DeclaredEdit({ children }: { children?: ReactNode }) {
  return (
    <Edit mutationMode="pessimistic" actions={<EditActions />}>
      {children ?? <DeclaredForm mode="edit" />}
    </Edit>
  );
}

export function DeclaredCreate({ children }: { children?: ReactNode }) {
  return <Create>{children ?? <DeclaredForm mode="create" />}</Create>;
}
