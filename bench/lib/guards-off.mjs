// Preload (`node --import`) for llm-gateway-bench.mjs's guards-off service: every call's guard settings are
// empty (not even the default card guard), so the one build's gateway runs with no guard configured beside
// the same build with the defaults, in one run. The guard pipeline still walks the request's texts and parses
// the answer (nothing to find, nothing changed): "off" is every detector off, not the pipeline removed.
// Bench-only: Switchyard has no setting that lowers the defaults (docs/guardrails.md).
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';

// Worker threads (the chDB engine's) inherit the flag; only the main thread serves the gateway.
if (isMainThread) {
  // The service's entry (dist/cli/main.js) is argv[1]; the resolver module is the one it will load.
  const dist = join(dirname(process.argv[1]), '..');
  const { GuardrailResolver } = await import(pathToFileURL(join(dist, 'src/guardrails/guardrail-resolver.js')).href);
  GuardrailResolver.prototype.settingsFor = async () => ({});
}
