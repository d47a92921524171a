import { render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigationType } from 'react-router';
import { AlertBar } from '../../../src/shell/AlertBar';
import type { ConsoleChunks } from '../../../src/shell/ChunksContext';
import { ConsoleRoutes } from '../../../src/shell/ConsoleRoutes';
import { defineChunk } from '../../../src/shell/lazyChunk';

/** Stands in for the signed-in console, which is another part's work. */
function MainStub() {
  return (
    <div data-testid="main-app">
      <AlertBar />
      Main app
    </div>
  );
}

function LocationProbe() {
  const location = useLocation();
  const navigationType = useNavigationType();
  return (
    <>
      <span data-testid="location">{`${location.pathname}${location.search}`}</span>
      <span data-testid="navigation-type">{navigationType}</span>
    </>
  );
}

/** The console's real top-level routes and auth chunk, at `path`, in a memory router. */
export function renderConsole(path: string | string[], chunks: Partial<ConsoleChunks> = {}) {
  const entries = Array.isArray(path) ? path : [path];
  const allChunks: ConsoleChunks = {
    auth: defineChunk('auth', () => import('../../../src/auth/AuthApp')),
    main: defineChunk('main', async () => ({ default: MainStub })),
    ...chunks,
  };
  const result = render(
    <MemoryRouter initialEntries={entries} initialIndex={entries.length - 1}>
      <ConsoleRoutes chunks={allChunks} />
      <LocationProbe />
    </MemoryRouter>,
  );
  return {
    ...result,
    location: () => screen.getByTestId('location').textContent,
    navigationType: () => screen.getByTestId('navigation-type').textContent,
  };
}
