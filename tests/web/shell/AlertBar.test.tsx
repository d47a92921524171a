import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { alerts } from '../../../providers/alerts';
import { AlertBar } from '../../../src/shell/AlertBar';

afterEach(() => alerts.clear());

describe('AlertBar', () => {
  it('renders nothing without an alert', () => {
    const { container } = render(<AlertBar />);
    expect(container).toBeEmptyDOMElement();
  });

  it('shows loading, success and danger states and can be dismissed', async () => {
    render(<AlertBar />);
    act(() => alerts.loading());
    expect(screen.getByRole('status')).toHaveTextContent('Please wait…');

    act(() => alerts.success('Saved'));
    const success = screen.getByRole('alert');
    expect(success).toHaveTextContent('Saved');
    expect(success).toHaveClass('alert-success');

    act(() => alerts.error('Nope'));
    expect(screen.getByRole('alert')).toHaveClass('alert-danger');
    expect(screen.getByRole('alert')).toHaveTextContent('Nope');

    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(alerts.get().type).toBeNull();
  });
});
