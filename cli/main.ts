#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// V8's compiled code for every module this process loads is kept on disk (os.tmpdir()/node-compile-cache,
// keyed by each file's content) and reused by the next start: the service and its dependencies are
// some 3,000 modules, and a start with the cache warm costs about 0.7 s less CPU (2.7 s instead of
// 3.4 s on a two-core host). NODE_DISABLE_COMPILE_CACHE=1 turns it off. Enabled before anything else
// is imported, so it covers the whole program.
enableCompileCache();

const { processIo } = await import('./io.js');
const { runCli } = await import('./program.js');

// `switchyard models list | head`: a reader that goes away is not an error of ours.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

runCli(process.argv.slice(2), processIo()).then(
  ({ outcome }) => {
    if (outcome === 'running') return;
    // A failed command exits now: whatever it left open (a connection retrying in the background)
    // must not keep it alive, or a supervisor would see a hung process instead of a failed one.
    if (outcome !== 0) process.exit(outcome);
    process.exitCode = outcome;
  },
  (error: unknown) => {
    process.stderr.write(`switchyard: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
