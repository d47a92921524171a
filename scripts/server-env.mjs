/**
 * The environment the server's and the worker's processes start with, however they are started:
 * `npm start` (package.json), the image (Dockerfile ENV), `npm run cluster` and the benches, each
 * keeping a value the operator set. tests/server/compose.test.ts holds the first two to these values.
 *
 * MALLOC_TRIM_THRESHOLD_ pins glibc's own default (128 KB). Left unset, glibc raises its mmap
 * threshold after each large block it frees (up to 32 MB, and the trim threshold to twice that),
 * and from then on keeps freed memory in its arenas instead of giving it back: the start's compilation and migrations leave
 * some 45 MB resident that an idle server never uses again (docs/benchmarks.md, "Memory"). Pinned,
 * large blocks are mapped and unmapped, and the top of each arena goes back to the system. glibc
 * reads it once, at the process's start, so the server cannot set it for itself; other C
 * libraries (macOS, musl) ignore it.
 */
export const SERVER_PROCESS_ENV = Object.freeze({ MALLOC_TRIM_THRESHOLD_: '131072' });
