import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initAnalytics } from '../providers/analytics';
import { ConsoleApp } from './shell/ConsoleApp';
import { installPreloadErrorListener } from './shell/preloadErrors';

installPreloadErrorListener();
initAnalytics();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <ConsoleApp />
  </StrictMode>,
);
