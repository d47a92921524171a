import type { ComponentType } from 'react';
import type { ResourceProps } from 'react-admin';
import { DeclarationProvider } from './DeclarationContext';
import { capabilitiesOf } from './declaration';
import { DeclaredCreate, DeclaredEdit } from './form/DeclaredEdit';
import { DeclaredList } from './list/DeclaredList';
import { DeclaredShow } from './show/DeclaredShow';
import type { AnyResourceDeclaration } from './types';

const cache = new WeakMap<AnyResourceDeclaration, ResourceProps>();

/**
 * A declaration as react-admin <Resource> props: the generic views, each replaced by the
 * declaration's override when it has one, all given the declaration through context.
 */
export function resourceProps(declaration: AnyResourceDeclaration): ResourceProps {
  const cached = cache.get(declaration);
  if (cached) return cached;
  const can = capabilitiesOf(declaration);
  const views = declaration.views ?? {};
  const view = (View: ComponentType) => (
    <DeclarationProvider declaration={declaration}>
      <View />
    </DeclarationProvider>
  );
  const props: ResourceProps = {
    name: declaration.name,
    icon: declaration.icon,
    recordRepresentation: declaration.recordRepresentation,
    list: view(views.list ?? DeclaredList),
    show: can.show || views.show ? view(views.show ?? DeclaredShow) : undefined,
    edit: can.edit || views.edit ? view(views.edit ?? DeclaredEdit) : undefined,
    create: can.create || views.create ? view(views.create ?? DeclaredCreate) : undefined,
  };
  cache.set(declaration, props);
  return props;
}
