import os from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      // Vitest's default leaves a core free (one worker on two cores); the test files wait on I/O
      // and timers much of the time, and two workers there halve the console suite's time.
      maxWorkers: Math.max(2, os.availableParallelism() - 1),
      projects: [
        {
          extends: true,
          // Node loads react-router-dom's own `import 'react-router'` with the `module-sync`
          // condition (the ESM build); without it Vite resolves the console's imports of
          // 'react-router' to the CommonJS build, and the two copies share no router context
          // (react-admin's <Routes> then rejects a <Route> as "not a <Route> component").
          resolve: { conditions: ['module-sync', 'module', 'browser', 'development|production'] },
          test: {
            name: 'web',
            environment: 'jsdom',
            globals: true,
            setupFiles: ['./tests/web/setup.ts'],
            include: ['tests/web/**/*.test.{ts,tsx}'],
          },
        },
        {
          test: {
            name: 'server',
            environment: 'node',
            globals: true,
            include: ['tests/server/**/*.test.ts'],
            testTimeout: 30_000,
            hookTimeout: 60_000,
          },
        },
      ],
    },
  }),
);
