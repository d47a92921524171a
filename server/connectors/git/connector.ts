import type { ConnectionConfig, Connector, Endpoint } from '../types';
import { locationOf, type GitOptions } from './location';
import { listBranches } from './reads';

/** The `git` connection type as a connector: tested by listing its branches, which are its endpoints. */
export function openGitConnector(config: ConnectionConfig, options: GitOptions): Connector {
  // Settings are checked now, so that a wrong one (or a refused place) fails at once.
  locationOf(config, options);
  return {
    async test() {
      const started = performance.now();
      const { defaultBranch, branches } = await listBranches(config, options);
      const count = `${branches.length} branch${branches.length === 1 ? '' : 'es'}`;
      return {
        latencyMs: Math.round(performance.now() - started),
        detail: defaultBranch ? `Default branch ${defaultBranch}, ${count}` : count,
      };
    },
    async endpoints(): Promise<Endpoint[]> {
      return (await listBranches(config, options)).branches.map((branch) => ({ id: branch.name, name: branch.name, kind: 'branch' }));
    },
    async close() {},
  };
}
