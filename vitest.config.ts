import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      projects: [
        {
          extends: true,
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
