import type { QueryClient } from '@tanstack/react-query';
import { resourceListUrl } from '../../../providers/authProvider';
import { firstPagePace } from '../../framework/list/firstPage';
import type { AnyResourceDeclaration } from '../../framework/types';
import type { NavigationPacer } from '../../shell/ConsoleRouter';

/**
 * The pace of moves in the console (src/shell/ConsoleRouter.tsx): a declared list's page, whose
 * code is in the console and whose first page was asked for as the user headed for it, is drawn
 * at once (or as soon as that first page comes); any other page as a transition. A list with a
 * view of its own (loaded when first opened) is any other page.
 */
export function listPagePacer(queryClient: QueryClient, declarations: readonly AnyResourceDeclaration[]): NavigationPacer {
  const byPath = new Map(
    declarations.filter((declaration) => !declaration.views?.list).map((declaration) => [resourceListUrl(declaration.name), declaration]),
  );
  return (location) => {
    const declaration = byPath.get(location.pathname.replace(/\/+$/, ''));
    return declaration ? firstPagePace(queryClient, declaration) : 'transition';
  };
}
