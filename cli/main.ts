#!/usr/bin/env node
import { processIo } from './io.js';
import { runCli } from './program.js';

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
