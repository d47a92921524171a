import { screen } from '@testing-library/react';

/**
 * A declared list's toolbar (filter bar and buttons) shows once its first rows are on screen:
 * waits for it, by its columns button (out of sight, and so not found, until then).
 */
export async function listToolbarShown(): Promise<void> {
  await screen.findByRole('button', { name: 'Columns' });
}
