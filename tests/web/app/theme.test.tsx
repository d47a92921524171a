import { Avatar, Checkbox, createTheme, TextField, ThemeProvider } from '@mui/material';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { darkTheme, lightTheme } from '../../../src/app/theme';

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
});
