/**
 * Enforces the import column of ARCHITECTURE.md: the domain (src/ outside src/adapters/) never
 * imports infrastructure clients, api/ or workers/; adapters never import api/ or workers/;
 * and no import cycles anywhere.
 */
const infrastructure =
  '^(fastify|@fastify/|@platformatic/kafka|ioredis|bullmq|@clickhouse/client|chdb|pino|ai|@ai-sdk/|@aws-sdk/|ollama-ai-provider-v2|@modelcontextprotocol/|@opentelemetry/)($|/)';
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'domain-not-to-infrastructure',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/adapters/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], path: infrastructure },
    },
    // src/ is the library and the domain: it imports nothing of the rooms around it.
    { name: 'src-not-to-outer-rooms', severity: 'error', from: { path: '^src/' }, to: { path: '^(api|workers|cli|test|bench|scripts|dashboard|deploy)/' } },
    // Only the composition roots build adapters: cli/ for the service and src/adapters/toolkit/ (with
    // src/index.ts, the library entry) for the library's `new NeuroLink()`. The domain gets ports.
    {
      name: 'domain-not-to-adapters',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(adapters/|index\\.ts$)' },
      to: { path: '^src/adapters/' },
    },
    // api/ is buildApp(deps): it never opens a connection, so it needs neither the composition root nor the workers.
    { name: 'api-not-to-cli', severity: 'error', from: { path: '^api/' }, to: { path: '^cli/' } },
    { name: 'api-not-to-workers', severity: 'error', from: { path: '^api/' }, to: { path: '^workers/' } },
    { name: 'workers-not-to-api', severity: 'error', from: { path: '^workers/' }, to: { path: '^(api|cli)/' } },
    {
      // ARCHITECTURE.md: a store's record types belong to the port, so ports import no feature folder
      // (only other ports and the neutral rooms: time, errors, schema-generated types).
      name: 'ports-not-to-features',
      severity: 'error',
      from: { path: '^src/ports/' },
      to: { path: '^src/', pathNot: '^src/(ports|time|errors|generated)/' },
    },
    {
      // Local files are reached through the FileSystem port (src/ports/file-system.ts). src/config/
      // may read settings files (.env); src/auth/common-passwords.ts reads a data file shipped with
      // the code (see its header comment).
      name: 'domain-not-to-node-fs',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(adapters|config)/|^src/auth/common-passwords[.]ts$' },
      to: { path: '^(node:)?fs(/promises)?$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
