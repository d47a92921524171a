import { buildMenu, findTrail } from '../../../src/app/menu/navigation';
import { adminNav } from './fixtures';

describe('the menu built from the navigation', () => {
  it('keeps the groups, their pages and a nested group in the order the server sent', () => {
    const menu = buildMenu(adminNav);
    const shape = (nodes: ReturnType<typeof buildMenu>): unknown =>
      nodes.map((node) => (node.children.length ? { [node.id]: shape(node.children) } : `${node.id} -> ${node.url}`));
    expect(shape(menu)).toEqual([
      { overview: ['dashboard -> /dashboard'] },
      { administration: ['outbox -> /outbox', { audits: ['access-events -> /audits/access-events'] }] },
    ]);
  });

  it('adds nothing the server did not assign, and drops entries that lead nowhere', () => {
    const menu = buildMenu([
      { title: 'Empty group', children: [] },
      { title: 'Reports', children: [{ title: 'Weekly', url: '/reports/weekly' }, { title: 'No page' }] },
    ]);
    expect(menu).toHaveLength(1);
    expect(menu[0]).toMatchObject({ id: 'group-1', title: 'Reports', children: [{ id: 'reports.weekly', url: '/reports/weekly' }] });
    expect(buildMenu(undefined)).toEqual([]);
  });

  it('finds the page a location is on, and the groups above it', () => {
    const menu = buildMenu(adminNav);
    expect(findTrail(menu, '/audits/access-events').map((node) => node.id)).toEqual(['administration', 'audits', 'access-events']);
    // A record under a list page still belongs to that page.
    expect(findTrail(menu, '/outbox/42/show').map((node) => node.id)).toEqual(['administration', 'outbox']);
    expect(findTrail(menu, '/outboxes')).toEqual([]);
    expect(findTrail(menu, '/nowhere')).toEqual([]);
  });
});
