import { Box, List, ListItem, ListItemButton, ListItemText, ListSubheader, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslate } from 'react-admin';
import { SearchField } from '../../framework/related/SearchField';
import { groupByTag, searchOperations } from '../../../resources/apikeys/api';
import { MethodChip } from '../../../resources/apikeys/MethodChip';
import type { ApiOperation } from '../../../resources/apikeys/types';

export interface OperationBrowserProps {
  operations: readonly ApiOperation[];
  selected: string | null;
  onSelect: (id: string) => void;
}

/** The catalogue, searchable, by tag: one line per operation with its method, path and summary. */
export function OperationBrowser({ operations, selected, onSelect }: OperationBrowserProps) {
  const translate = useTranslate();
  const [search, setSearch] = useState('');
  const groups = useMemo(() => groupByTag(searchOperations(operations, search)), [operations, search]);
  const shown = groups.reduce((sum, group) => sum + group.operations.length, 0);
  const label = translate('resources.apikeys.explorer.search');
  return (
    <Box
      component="nav"
      aria-label={translate('resources.apikeys.explorer.operations')}
      sx={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
    >
      <SearchField type="search" fullWidth label={label} value={search} onChange={setSearch} />
      <Typography variant="caption" color="text.secondary" sx={{ my: 1 }} aria-live="polite">
        {translate('resources.apikeys.explorer.count', { smart_count: shown })}
      </Typography>
      {shown === 0 && <Typography variant="body2">{translate('resources.apikeys.explorer.none')}</Typography>}
      <List dense disablePadding sx={{ overflowY: 'auto', maxHeight: { md: 'calc(100vh - 260px)' } }}>
        {groups.map((group) => (
          <li key={group.tag} data-tag={group.tag}>
            <Box component="ul" sx={{ p: 0 }}>
              <ListSubheader sx={{ lineHeight: '32px' }}>{`${group.tag} (${group.operations.length})`}</ListSubheader>
              {group.operations.map((operation) => (
                <ListItem key={operation.id} disablePadding>
                  <ListItemButton
                    selected={operation.id === selected}
                    aria-current={operation.id === selected ? 'true' : undefined}
                    onClick={() => onSelect(operation.id)}
                    sx={{ gap: 1, alignItems: 'flex-start' }}
                  >
                    <Box sx={{ pt: 0.5 }}>
                      <MethodChip method={operation.method} />
                    </Box>
                    <ListItemText
                      primary={operation.path}
                      secondary={operation.summary}
                      slotProps={{ primary: { sx: { fontFamily: 'monospace', fontSize: '0.8rem', wordBreak: 'break-all' } } }}
                    />
                  </ListItemButton>
                </ListItem>
              ))}
            </Box>
          </li>
        ))}
      </List>
    </Box>
  );
}
