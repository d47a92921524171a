import { Avatar, Checkbox, createTheme, Dialog, Skeleton, TextField, ThemeProvider } from '@mui/material';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { darkTheme, lightTheme, withReducedMotion } from '../../../src/app/theme';

describe('the theme', () => {
  it('puts an aria-label on the input a screen reader reads, not on the span around it', () => {
    render(
      <ThemeProvider theme={createTheme(lightTheme)}>
        <Checkbox aria-label="Select this row" />
        <Checkbox slotProps={{ input: { 'aria-label': 'Select all' } }} />
      </ThemeProvider>,
    );
    const row = screen.getByRole('checkbox', { name: 'Select this row' });
    expect(row.tagName).toBe('INPUT');
    expect(row.parentElement?.hasAttribute('aria-label')).toBe(false);
    expect(screen.getByRole('checkbox', { name: 'Select all' }).tagName).toBe('INPUT');
    expect(document.querySelectorAll('[aria-label]')).toHaveLength(2);
  });

  it.each([
    ['light', lightTheme, 'rgb(71, 85, 105)', 'rgb(255, 255, 255)'],
    ['dark', darkTheme, 'rgb(148, 163, 184)', 'rgb(11, 16, 32)'],
  ])('draws initials on a plain avatar in colours that read at 4.5:1 or more (%s)', (_, theme, background, color) => {
    render(
      <ThemeProvider theme={createTheme(theme)}>
        <Avatar>AA</Avatar>
      </ThemeProvider>,
    );
    const style = getComputedStyle(screen.getByText('AA'));
    expect(style.backgroundColor).toBe(background);
    expect(style.color).toBe(color);
  });

  it.each([
    ['light', lightTheme, 'rgba(0, 0, 0, 0.6)'],
    ['dark', darkTheme, 'rgba(255, 255, 255, 0.7)'],
  ])("keeps a disabled field's helper text in the secondary text colour, not MUI's disabled grey (%s)", (_, theme, color) => {
    render(
      <ThemeProvider theme={createTheme(theme)}>
        <TextField label="Repository" disabled helperText="Where SQL tasks read their files" />
      </ThemeProvider>,
    );
    const help = screen.getByText('Where SQL tasks read their files');
    expect(help.classList.contains('Mui-disabled')).toBe(true);
    expect(getComputedStyle(help).color).toBe(color);
  });

  /** A dialog as the console opens one (a confirmation), and a loading placeholder. */
  const DialogAndPlaceholder = () => (
    <Dialog open aria-label="Delete this workflow?">
      <Skeleton data-testid="placeholder" />
    </Dialog>
  );
  const fading = () => screen.getByRole('dialog').closest('.MuiDialog-container') as HTMLElement;

  it.each([
    ['light', lightTheme],
    ['dark', darkTheme],
  ])('opens dialogs and menus at once and keeps placeholders still for people who asked for less motion (%s)', (_, theme) => {
    const still = createTheme(withReducedMotion(theme));
    // Menus grow over a time that depends on their height.
    expect(still.transitions.getAutoHeightDuration(400)).toBe(0);
    expect(Object.values(still.transitions.duration).every((ms) => ms === 0)).toBe(true);
    render(
      <ThemeProvider theme={still}>
        <DialogAndPlaceholder />
      </ThemeProvider>,
    );
    expect(fading().style.transition).toMatch(/^opacity 0ms /);
    expect(screen.getByTestId('placeholder').className).not.toMatch(/MuiSkeleton-(pulse|wave)/);
    // The rest of the theme is the same.
    expect(still.palette.primary.main).toBe(createTheme(theme).palette.primary.main);
  });

  it('fades its dialogs, grows its menus and pulses its placeholders otherwise', () => {
    const moving = createTheme(lightTheme);
    expect(moving.transitions.getAutoHeightDuration(400)).toBeGreaterThan(0);
    render(
      <ThemeProvider theme={moving}>
        <DialogAndPlaceholder />
      </ThemeProvider>,
    );
    expect(fading().style.transition).toMatch(/^opacity 225ms /);
    expect(screen.getByTestId('placeholder').className).toMatch(/MuiSkeleton-pulse/);
  });
});
