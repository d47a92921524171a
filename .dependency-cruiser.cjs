/**
 * Which way dependencies may point (README "Design"): the contract is shared by both halves and
 * depends on neither; the console never depends on the server, nor the server on the console;
 * the providers know no view or declaration; the framework serves the resources and does not
 * know them; no module reaches back into the
 * server's assembly (server/app.ts); and no module imports itself back, type imports included.
 * `npm run depcheck` fails on any of these.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'A module that imports itself back, directly or through others (type imports count).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'common-stands-alone',
      severity: 'error',
      comment: 'common/ is shared by the console and the server, so it depends on neither.',
      from: { path: '^common/' },
      to: { path: '^(src|resources|providers|server|tests)/' },
    },
    {
      name: 'console-not-server',
      severity: 'error',
      comment: 'The console works against any server honouring the contract: it never imports server code.',
      from: { path: '^(src|resources|providers)/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-not-console',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(src|resources|providers)/' },
    },
    {
      name: 'providers-below-console',
      severity: 'error',
      comment: 'The providers call the server for any resource they are given; they import no view, declaration or registry.',
      from: { path: '^providers/' },
      to: { path: '^(src|resources)/' },
    },
    {
      name: 'framework-not-resources',
      severity: 'error',
      comment: 'The framework turns declarations into views; it does not know any one resource.',
      from: { path: '^src/framework/' },
      to: { path: '^resources/' },
    },
    {
      name: 'no-app-imports',
      severity: 'error',
      comment: 'server/app.ts assembles the server; only the entry points and tests may import it.',
      from: { path: '^server/', pathNot: '^server/(index|worker)\\.ts$' },
      to: { path: '^server/app\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|data|\\.tmp)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
