import './shell/zodWithoutEval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initAnalytics } from '../providers/analytics';
import { consoleChunks } from './shell/chunks';
import { ConsoleApp } from './shell/ConsoleApp';
import { EntryStylesheets, failedEntryStylesheets } from './shell/EntryStylesheets';
import { installPreloadErrorListener } from './shell/preloadErrors';
import { prepareFirstRender } from './shell/startup';

installPreloadErrorListener();
initAnalytics();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// Read before anything renders: a failed first style sheet is said, with Retry, not drawn unstyled.
void Promise.all([failedEntryStylesheets(), prepareFirstRender(consoleChunks, window.location.pathname)]).then(([failedStylesheets]) =>
  createRoot(root).render(
    <StrictMode>
      <EntryStylesheets failed={failedStylesheets}>
        <ConsoleApp />
      </EntryStylesheets>
    </StrictMode>,
  ),
);
