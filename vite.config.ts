import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compressAssets } from './scripts/compress-assets.ts';
import { preloadFirstScreen } from './scripts/preload-first-screen.ts';
import { screenChunks } from './scripts/screen-chunks.ts';

const apiTarget = process.env.API_URL || `http://127.0.0.1:${process.env.API_PORT || process.env.PORT || 8080}`;

export default defineConfig({
  plugins: [
    react(),
    screenChunks('src/main.tsx', { AuthApp: 'src/auth/AuthApp.tsx', MainApp: 'src/app/MainApp.tsx' }),
    preloadFirstScreen(['src/auth/AuthApp.tsx']),
    compressAssets(),
  ],
  build: {
    outDir: 'dist/console',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: Number(process.env.VITE_PORT || 5173),
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
});
