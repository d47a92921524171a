import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * The sign-in path has a 150 KB gzip budget, so the entry and the auth chunk must not reach
 * react-admin, MUI, emotion, react-hook-form or zod (the contracts' schemas, which come with the
 * console). This walks their static imports (not the lazy `import()` of other chunks, not
 * `import type`) and fails on any of those packages.
 */
const ROOT = resolve(__dirname, '../../..');
const FORBIDDEN = /^(react-admin|ra-[a-z-]+|@mui\/|@emotion\/|react-hook-form|zod)/;
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function resolveModule(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find(isFile) ?? null;
}

function reachablePackages(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [resolve(ROOT, entry)];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(STATIC_IMPORT)) {
      const specifier = match[1];
      if (specifier.startsWith('.')) {
        const target = resolveModule(file, specifier);
        if (target && /\.(ts|tsx)$/.test(target)) queue.push(target);
      } else {
        packages.set(specifier, file.slice(ROOT.length + 1));
      }
    }
  }
  return packages;
}

describe('the sign-in path stays light', () => {
  it.each(['src/main.tsx', 'src/auth/AuthApp.tsx'])('%s imports no react-admin, MUI, emotion, react-hook-form or zod', (entry) => {
    const packages = reachablePackages(entry);
    expect(packages.has('react')).toBe(true);
    const offenders = [...packages].filter(([name]) => FORBIDDEN.test(name)).map(([name, file]) => `${name} (from ${file})`);
    expect(offenders).toEqual([]);
  });

  it('would notice an offender', () => {
    expect(FORBIDDEN.test('@mui/material')).toBe(true);
    expect(FORBIDDEN.test('react-admin')).toBe(true);
    expect(FORBIDDEN.test('zod')).toBe(true);
    expect("import { Admin } from 'react-admin';".match(new RegExp(STATIC_IMPORT.source, 'm'))?.[1]).toBe('react-admin');
    expect("import type { AuthProvider } from 'react-admin';".match(new RegExp(STATIC_IMPORT.source, 'm'))).toBeNull();
  });
});
