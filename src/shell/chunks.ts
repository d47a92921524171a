import type { ConsoleChunks } from './ChunksContext';
import { defineChunk } from './lazyChunk';

export const consoleChunks: ConsoleChunks = {
  auth: defineChunk('auth', () => import('../auth/AuthApp')),
  main: defineChunk('main', () => import('../app/MainApp')),
};
