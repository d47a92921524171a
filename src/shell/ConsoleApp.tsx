import { consoleChunks } from './chunks';
import { ConsoleRouter } from './ConsoleRouter';
import { ConsoleRoutes } from './ConsoleRoutes';

/** The one router of the console (./ConsoleRouter.tsx); react-admin's <Admin> detects it and runs inside it. */
export function ConsoleApp() {
  return (
    <ConsoleRouter>
      <ConsoleRoutes chunks={consoleChunks} />
    </ConsoleRouter>
  );
}
