import { createContext, useContext, type ReactNode } from 'react';
import type { AnyResourceDeclaration } from './types';

const DeclarationContext = createContext<AnyResourceDeclaration | null>(null);

/** Gives the views (and overrides) of a resource its declaration. */
export function DeclarationProvider({ declaration, children }: { declaration: AnyResourceDeclaration; children: ReactNode }) {
  return <DeclarationContext.Provider value={declaration}>{children}</DeclarationContext.Provider>;
}

export function useDeclaration(): AnyResourceDeclaration {
  const declaration = useContext(DeclarationContext);
  if (!declaration) throw new Error('useDeclaration must be used inside a declared resource view');
  return declaration;
}

/** The declaration of the resource view around, if any (a control that may also stand outside one). */
export function useDeclarationIfAny(): AnyResourceDeclaration | null {
  return useContext(DeclarationContext);
}
