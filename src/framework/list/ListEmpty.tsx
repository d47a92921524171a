import FilterAltOffIcon from '@mui/icons-material/FilterAltOff';
import InboxIcon from '@mui/icons-material/Inbox';
import { Box, CardContent, Typography } from '@mui/material';
import { createElement } from 'react';
import { Button, CreateButton, useCanAccess, useGetResourceLabel, useListContext, useResourceContext, useTranslate } from 'react-admin';
import { useDeclaration } from '../DeclarationContext';
import { capabilitiesOf } from '../declaration';

/**
 * What a list says when it has no rows. With no filter at all (react-admin's empty page): what
 * the thing is, and its Create button for a user who may create one. With filters that match
 * nothing (the table's empty state): that they match nothing, and a button to clear them.
 */

/** The list of a resource with no record at all. */
export function DeclaredEmptyPage() {
  const declaration = useDeclaration();
  const resource = useResourceContext()!;
  const translate = useTranslate();
  const label = useGetResourceLabel();
  const can = capabilitiesOf(declaration);
  const { canAccess: mayCreate } = useCanAccess({ resource, action: 'create', enabled: can.create });
  // What the thing is: the declaration's own words (`resources.<name>.description`), else the console's.
  const about = translate(`resources.${declaration.name}.description`, { _: translate(`app.list.about.${declaration.name}`, { _: '' }) });
  return (
    <Box
      data-empty-list
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        textAlign: 'center',
        gap: 1.5,
        py: 6,
        px: 2,
        maxWidth: 560,
        mx: 'auto',
      }}
    >
      <Box sx={{ color: 'text.disabled', '& svg': { fontSize: 56 } }} aria-hidden>
        {createElement(declaration.icon ?? InboxIcon)}
      </Box>
      <Typography variant="h6" component="h2">
        {translate('app.list.empty.title', { name: label(resource, 2).toLowerCase() })}
      </Typography>
      {about && (
        <Typography variant="body2" color="text.secondary">
          {about}
        </Typography>
      )}
      {can.create && mayCreate && <CreateButton variant="contained" />}
    </Box>
  );
}

/** The table's rows when the filters match nothing (or, without filters, a page past the last). */
export function DeclaredNoResults() {
  const resource = useResourceContext()!;
  const translate = useTranslate();
  const label = useGetResourceLabel();
  const { filterValues, setFilters } = useListContext();
  const filtered = Object.keys(filterValues ?? {}).length > 0;
  return (
    <CardContent data-no-results sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
      <Typography variant="body2">
        {filtered
          ? translate('app.list.empty.filtered', { name: label(resource, 2).toLowerCase() })
          : translate('ra.navigation.no_results', { name: label(resource, 2).toLowerCase() })}
      </Typography>
      {filtered && (
        <Button label="app.list.empty.clear_filters" onClick={() => setFilters({}, [])}>
          <FilterAltOffIcon />
        </Button>
      )}
    </CardContent>
  );
}
