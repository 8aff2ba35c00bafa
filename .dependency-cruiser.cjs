/**
 * Enforces the import column of ARCHITECTURE.md: the domain (src/ outside src/adapters/) never
 * imports infrastructure clients, api/ or workers/; adapters never import api/ or workers/;
 * and no import cycles anywhere.
 */
const infrastructure =
  '^(fastify|@fastify/|kafkajs|ioredis|bullmq|@clickhouse/client|chdb|pino|ai|@ai-sdk/|@aws-sdk/|ollama-ai-provider-v2|@modelcontextprotocol/|@opentelemetry/)($|/)';
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'domain-not-to-infrastructure',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/adapters/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], path: infrastructure },
    },
    { name: 'src-not-to-outer-rooms', severity: 'error', from: { path: '^src/' }, to: { path: '^(api|workers|cli)/' } },
    { name: 'workers-not-to-api', severity: 'error', from: { path: '^workers/' }, to: { path: '^api/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
