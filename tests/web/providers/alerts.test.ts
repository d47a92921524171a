import { alerts } from '../../../providers/alerts';

afterEach(() => alerts.clear());

describe('alerts on a route change', () => {
  it('are cleared', () => {
    alerts.success('Saved');
    alerts.routeChanged('/tables');
    expect(alerts.get()).toEqual({ type: null, message: '' });
  });

  it('stay when raised for the page just reached, once', () => {
    alerts.error('No access', { keepFor: '/dashboard' });
    alerts.routeChanged('/dashboard');
    expect(alerts.get()).toEqual({ type: 'danger', message: 'No access' });
    alerts.routeChanged('/tables');
    expect(alerts.get().type).toBeNull();
  });

  it('are cleared when the user ends up elsewhere', () => {
    alerts.error('No access', { keepFor: '/dashboard' });
    alerts.routeChanged('/auth/signin');
    expect(alerts.get().type).toBeNull();
  });
});
