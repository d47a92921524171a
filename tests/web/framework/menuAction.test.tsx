import LoginIcon from '@mui/icons-material/Login';
import MailIcon from '@mui/icons-material/MailOutlined';
import { Menu } from '@mui/material';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MenuAction } from '../../../src/framework/MenuAction';

afterEach(cleanup);

function OpenMenu({ log, firstDisabled = false }: { log: string[]; firstDisabled?: boolean }) {
  return (
    <Menu open anchorEl={document.body} onClose={() => log.push('closed by the menu')}>
      <MenuAction
        icon={LoginIcon}
        label="Act as"
        disabled={firstDisabled}
        close={() => log.push('close')}
        onAct={() => log.push('act as')}
      />
      <MenuAction icon={MailIcon} label="Resend" dense close={() => log.push('close')} onAct={() => log.push('resend')} />
    </Menu>
  );
}

describe('a menu action', () => {
  it('is a menu item with its icon and label; choosing it closes the menu, then acts', async () => {
    const log: string[] = [];
    render(<OpenMenu log={log} />);
    const item = screen.getByRole('menuitem', { name: 'Resend' });
    expect(item.querySelector('svg')).not.toBeNull();
    // MenuItem's own props reach it.
    expect(item).toHaveClass('MuiMenuItem-dense');
    await userEvent.click(item);
    expect(log).toEqual(['close', 'resend']);
  });

  it("takes the menu's focus as it opens (the first one that may be chosen) and moves with the arrow keys", async () => {
    const log: string[] = [];
    render(<OpenMenu log={log} firstDisabled />);
    expect(screen.getByRole('menuitem', { name: 'Resend' })).toHaveFocus();
    cleanup();

    render(<OpenMenu log={log} />);
    expect(screen.getByRole('menuitem', { name: 'Act as' })).toHaveFocus();
    // The menu's roving tab stop reaches the item.
    expect(screen.getByRole('menuitem', { name: 'Act as' })).toHaveAttribute('tabindex', '0');
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Resend' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(log).toEqual(['close', 'resend']);
  });

  it('cannot be chosen while disabled', async () => {
    const log: string[] = [];
    render(<OpenMenu log={log} firstDisabled />);
    expect(screen.getByRole('menuitem', { name: 'Act as' })).toHaveAttribute('aria-disabled', 'true');
  });
});
