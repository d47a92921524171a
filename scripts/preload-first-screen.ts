import path from 'node:path';
import type { HtmlTagDescriptor, Plugin } from 'vite';

/**
 * Most visits start on an authentication screen, whose chunk the entry only requests once it
 * has been parsed and run. This lists that chunk (and what it imports, and its styles) in
 * index.html as preloads, so the browser fetches it alongside the entry. The styles are
 * preloaded, not applied: Vite's loader applies them when the chunk is imported.
 */
export function preloadFirstScreen(screenModules: string[]): Plugin {
  let base = '/';
  let root = process.cwd();
  return {
    name: 'dataops-preload-first-screen',
    apply: 'build',
    configResolved(config) {
      base = config.base;
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const scripts = new Set<string>();
        const styles = new Set<string>();
        // The chunk that holds a screen's module: its own, or the group it was put in (screen-chunks.ts).
        const wanted = new Set(screenModules.map((file) => path.resolve(root, file)));
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk' || output.isEntry || !output.moduleIds.some((id) => wanted.has(id))) continue;
          scripts.add(output.fileName);
          output.viteMetadata?.importedCss.forEach((css) => styles.add(css));
          for (const imported of output.imports) {
            const dependency = bundle[imported];
            if (dependency?.type !== 'chunk' || dependency.isEntry) continue;
            scripts.add(dependency.fileName);
            dependency.viteMetadata?.importedCss.forEach((css) => styles.add(css));
          }
        }
        const tags: HtmlTagDescriptor[] = [
          ...[...scripts].map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${file}` },
            injectTo: 'head' as const,
          })),
          ...[...styles].map((file) => ({
            tag: 'link',
            attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `${base}${file}` },
            injectTo: 'head' as const,
          })),
        ];
        return tags;
      },
    },
  };
}
