import './shell/zodWithoutEval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initAnalytics } from '../providers/analytics';
import { consoleChunks } from './shell/chunks';
import { ConsoleApp } from './shell/ConsoleApp';
import { installPreloadErrorListener } from './shell/preloadErrors';
import { prepareFirstRender } from './shell/startup';

installPreloadErrorListener();
initAnalytics();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

void prepareFirstRender(consoleChunks, window.location.pathname).then(() =>
  createRoot(root).render(
    <StrictMode>
      <ConsoleApp />
    </StrictMode>,
  ),
);
