import { Alert, Box, Checkbox, FormControlLabel, FormGroup, Skeleton, Tooltip, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { failureText } from '../../src/framework/feedback';
import { getPageCatalogue, pageCatalogueKey } from './api';
import { groupPages, orderedPageIds, ROLES_PAGE_ID } from './policyMatrix';
import type { PageEntry } from './types';

export function usePageCatalogue() {
  return useQuery({
    queryKey: pageCatalogueKey,
    queryFn: ({ signal }) => getPageCatalogue(signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

export interface PageChecklistProps {
  catalogue: readonly PageEntry[];
  value: readonly string[];
  onChange: (next: string[]) => void;
  /** Admin-only pages can be given to admin roles only, and an admin role keeps the roles page. */
  roleIsAdmin: boolean;
  disabled?: boolean;
}

/** Why a page's box cannot be changed for this role, or null. */
function lockOf(page: PageEntry, checked: boolean, roleIsAdmin: boolean): string | null {
  if (page.adminOnly && !roleIsAdmin && !checked) return 'resources.roles.pages.admin_only';
  if (roleIsAdmin && page.id === ROLES_PAGE_ID && checked) return 'resources.roles.pages.admin_keeps';
  return null;
}

/** The console's pages by menu group, a box each; what the role's users find in their menu. */
export function PageChecklist({ catalogue, value, onChange, roleIsAdmin, disabled }: PageChecklistProps) {
  const translate = useTranslate();
  const toggle = (pageId: string, on: boolean) =>
    onChange(orderedPageIds(on ? [...value, pageId] : value.filter((id) => id !== pageId), catalogue));
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', maxWidth: 960 }}>
      {groupPages(catalogue).map((group) => (
        <Box key={group.key} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <Typography component="legend" variant="subtitle2" sx={{ mb: 0.5 }}>
            {group.title}
          </Typography>
          <FormGroup>
            {group.pages.map((page) => {
              const checked = value.includes(page.id);
              const lock = lockOf(page, checked, roleIsAdmin);
              const box = (
                <FormControlLabel
                  label={page.title}
                  disabled={disabled || lock !== null}
                  control={<Checkbox size="small" checked={checked} onChange={(event) => toggle(page.id, event.target.checked)} />}
                />
              );
              return lock ? (
                <Tooltip key={page.id} title={translate(lock)} placement="right">
                  {/* A disabled control gets no pointer events: the tooltip listens on its wrapper. */}
                  <span data-page={page.id}>{box}</span>
                </Tooltip>
              ) : (
                <span key={page.id} data-page={page.id}>
                  {box}
                </span>
              );
            })}
          </FormGroup>
        </Box>
      ))}
    </Box>
  );
}

/** The checklist once the catalogue is in. */
export function LoadedPageChecklist(props: Omit<PageChecklistProps, 'catalogue'>) {
  const translate = useTranslate();
  const catalogue = usePageCatalogue();
  if (catalogue.isPending)
    return (
      <Skeleton
        variant="rectangular"
        height={120}
        sx={{ maxWidth: 960 }}
        role="progressbar"
        aria-label={translate('resources.roles.pages.loading')}
      />
    );
  if (catalogue.isError) {
    return <Alert severity="error">{translate('resources.roles.pages.load_error', { message: failureText(catalogue.error) })}</Alert>;
  }
  return <PageChecklist {...props} catalogue={catalogue.data} />;
}

/** A role's pages, read-only, by menu group. */
export function PageList({ pages }: { pages: readonly PageEntry[] }) {
  const translate = useTranslate();
  if (pages.length === 0) return <Typography variant="body2">{translate('resources.roles.pages.none')}</Typography>;
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      {groupPages(pages).map((group) => (
        <Box key={group.key}>
          <Typography variant="subtitle2">{group.title}</Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {group.pages.map((page) => (
              <li key={page.id}>
                <Typography variant="body2">{page.title}</Typography>
              </li>
            ))}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
