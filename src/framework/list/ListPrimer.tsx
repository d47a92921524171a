import { Box } from '@mui/material';
import { useEffect, useState } from 'react';
import { ListContextProvider, ResourceContextProvider, useList } from 'react-admin';
import { DeclarationProvider } from '../DeclarationContext';
import { defineResource } from '../types';
import { ConsolePagination } from './ConsolePagination';
import { DeclaredDataTable } from './DeclaredList';
import { RowStatesProvider } from './RowStates';

/**
 * A list of the usual column kinds (text, e-mail, status and choice chips, yes/no, dates, a
 * number), drawn from the record below and never asked of the server.
 */
const primerDeclaration = defineResource({
  name: 'list-primer',
  messages: { en: { name: 'List' } },
  routes: { list: '/list-primer/{offset}/{limit}', update: '/list-primer/{id}', delete: '/list-primer/{id}' },
  can: { bulkDelete: true },
  fields: [
    { source: 'name', type: 'text', sortable: true },
    { source: 'email', type: 'email' },
    { source: 'status', type: 'status', choices: [{ id: 'active', name: 'Active' }], colors: { active: 'success' } },
    { source: 'kind', type: 'select', choices: [{ id: 'one', name: 'One' }] },
    { source: 'tags', type: 'chips' },
    { source: 'enabled', type: 'boolean' },
    { source: 'count', type: 'number' },
    { source: 'createdAt', type: 'datetime', sortable: true },
  ],
});

const primerRecords = [
  {
    id: 'primer',
    name: 'Name',
    email: 'name@example.com',
    status: 'active',
    kind: 'one',
    tags: [{ name: 'Tag' }],
    enabled: true,
    count: 1,
    createdAt: new Date(0).toISOString(),
  },
];

function PrimerTable() {
  const list = useList({ data: primerRecords, resource: primerDeclaration.name });
  return (
    <ResourceContextProvider value={primerDeclaration.name}>
      <DeclarationProvider declaration={primerDeclaration}>
        <RowStatesProvider>
          <ListContextProvider value={list}>
            <DeclaredDataTable />
            <ConsolePagination />
          </ListContextProvider>
        </RowStatesProvider>
      </DeclarationProvider>
    </ResourceContextProvider>
  );
}

/** Whether this page has drawn its primer already: once per page load is enough. */
let primed = false;

/**
 * Draws a list's table once, out of sight, while the browser is idle after the console's first
 * page, and removes it at the next idle moment. The first list page a user opens then finds
 * what every later one finds: the table's code run once (compiled) and its styles in the page,
 * instead of paying for them between the menu click and its first row. Browsers without idle
 * callbacks skip it.
 */
export function ListPrimer() {
  const [drawing, setDrawing] = useState(false);
  useEffect(() => {
    if (primed || typeof requestIdleCallback !== 'function') return;
    const id = requestIdleCallback(() => {
      primed = true;
      setDrawing(true);
    });
    return () => cancelIdleCallback(id);
  }, []);
  useEffect(() => {
    if (!drawing) return;
    const id = requestIdleCallback(() => setDrawing(false));
    return () => cancelIdleCallback(id);
  }, [drawing]);
  if (!drawing) return null;
  return (
    <Box hidden aria-hidden data-list-primer sx={{ display: 'none' }}>
      <PrimerTable />
    </Box>
  );
}
