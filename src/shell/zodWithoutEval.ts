/**
 * zod compiles object parsers with `new Function` where it may, and finds out by trying once.
 * The console's Content-Security-Policy allows no eval (script-src 'self'), so that try is refused
 * and reported as a violation on every screen with a form or a validated answer. zod reads this
 * global setting when it builds a schema; set here, before any chunk with schemas loads, the try is
 * never made. Imported first by main.tsx. See docs/security.md.
 */
const scope = globalThis as typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };
(scope.__zod_globalConfig ??= {}).jitless = true;

export {};
