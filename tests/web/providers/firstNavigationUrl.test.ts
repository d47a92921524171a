import { DEFAULT_LANDING_URL, firstNavigationUrl, navigationPages } from '../../../providers/firstNavigationUrl';
import { sessionUser, storeUser } from '../fixtures';

describe('firstNavigationUrl', () => {
  it('is the url of the first child of the first navigation item', () => {
    expect(firstNavigationUrl(sessionUser())).toBe('/tables');
  });

  it('is the first grandchild url when the navigation nests one level deeper', () => {
    const user = sessionUser({
      navItems: {
        userNavItemJson: {
          items: [
            {
              title: 'Data',
              children: [
                {
                  title: 'Catalogue',
                  children: [
                    { title: 'Workflows', url: '/workflows' },
                    { title: 'Tables', url: '/tables' },
                  ],
                },
              ],
            },
            { title: 'Admin', children: [{ title: 'Users', url: '/users' }] },
          ],
        },
      },
    });
    expect(firstNavigationUrl(user)).toBe('/workflows');
  });

  it('falls back to /dashboard without navigation or without a user', () => {
    expect(DEFAULT_LANDING_URL).toBe('/dashboard');
    expect(firstNavigationUrl(sessionUser({ navItems: undefined }))).toBe('/dashboard');
    expect(firstNavigationUrl(sessionUser({ navItems: { userNavItemJson: { items: [{ title: 'Empty', children: [] }] } } }))).toBe(
      '/dashboard',
    );
    expect(firstNavigationUrl(null)).toBe('/dashboard');
  });

  it('reads the stored user by default', () => {
    storeUser(sessionUser({ navItems: { userNavItemJson: { items: [{ title: 'A', children: [{ title: 'Users', url: '/users' }] }] } } }));
    expect(firstNavigationUrl()).toBe('/users');
  });
});

describe('navigationPages', () => {
  it('lists every url of children and grandchildren once, in menu order', () => {
    const user = sessionUser({
      navItems: {
        userNavItemJson: {
          items: [
            {
              title: 'A',
              children: [
                { title: 'Tables', url: '/tables' },
                { title: 'Nested', children: [{ title: 'Jobs', url: '/jobs' }] },
              ],
            },
            {
              title: 'B',
              children: [
                { title: 'Tables again', url: '/tables' },
                { title: 'Users', url: '/users' },
              ],
            },
          ],
        },
      },
    });
    expect(navigationPages(user)).toEqual(['/tables', '/jobs', '/users']);
    expect(navigationPages(null)).toEqual([]);
  });
});
