import type git from 'isomorphic-git';

/**
 * isomorphic-git, loaded at the first use of a git connection rather than with the server: a
 * server whose companies have none never holds its ~15 MB of code.
 */
export async function loadGit(): Promise<typeof git> {
  return (await import('isomorphic-git')).default;
}
