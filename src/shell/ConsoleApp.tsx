import { BrowserRouter } from 'react-router';
import { consoleChunks } from './chunks';
import { ConsoleRoutes } from './ConsoleRoutes';

/** The one router of the console; react-admin's <Admin> detects it and runs inside it. */
export function ConsoleApp() {
  return (
    <BrowserRouter>
      <ConsoleRoutes chunks={consoleChunks} />
    </BrowserRouter>
  );
}
