import path from 'node:path';
import type { Plugin } from 'vite';

interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
}

/**
 * Puts everything a lazily loaded screen imports statically into one chunk of its own, beside
 * what the page already has. Left to automatic splitting, the signed-in console is some eighty
 * small files: over HTTP/1.1's six connections they queue behind one another, and the sign-in
 * call that goes out with them waits in that queue. Modules the entry, an earlier screen or
 * anything those load lazily also import stay where automatic splitting puts them, so the
 * earlier screens never load the bigger one's chunk.
 *
 * `screens` maps a chunk name to its module (relative to the project root), in loading order:
 * each screen's chunk leaves out what the entry and the screens before it load (a later screen
 * imports those from the earlier chunk, which the shell fetches ahead in any case).
 */
export function screenChunks(entry: string, screens: Record<string, string>): Plugin {
  let root = process.cwd();
  let groups: Map<string, string> | null = null;

  const closure = (graph: ModuleGraph, start: string, into = new Set<string>()) => {
    const stack = [start];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (into.has(id)) continue;
      const info = graph.getModuleInfo(id);
      if (!info) continue;
      into.add(id);
      stack.push(...info.importedIds);
    }
    return into;
  };

  /** Which screen chunk each module goes to, worked out once per build. */
  const assign = (graph: ModuleGraph) => {
    const assigned = new Map<string, string>();
    const screenIds = new Set(Object.values(screens).map((file) => path.resolve(root, file)));
    // What the page may hold before the next screen loads: the entry, earlier screens, and what
    // those load lazily (other than screens).
    const loadedEarlier = closure(graph, path.resolve(root, entry));
    const addLazyParts = () => {
      for (const module of [...loadedEarlier]) {
        for (const lazy of graph.getModuleInfo(module)?.dynamicallyImportedIds ?? []) {
          if (!screenIds.has(lazy) && !loadedEarlier.has(lazy)) closure(graph, lazy, loadedEarlier);
        }
      }
    };
    addLazyParts();
    for (const [name, file] of Object.entries(screens)) {
      const own = closure(graph, path.resolve(root, file));
      for (const module of own) if (!loadedEarlier.has(module)) assigned.set(module, name);
      for (const module of own) loadedEarlier.add(module);
      addLazyParts();
    }
    return assigned;
  };

  return {
    name: 'dataops-screen-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    buildStart() {
      groups = null;
    },
    config() {
      return {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  {
                    debugName: 'screens',
                    name: (id: string, graph: ModuleGraph) => (groups ??= assign(graph)).get(id) ?? null,
                    // Only the modules chosen above: their dependencies elsewhere stay elsewhere.
                    includeDependenciesRecursively: false,
                  },
                ],
              },
            },
          },
        },
      };
    },
  };
}
