#!/usr/bin/env node
// Guardrails bench (issue 38): precision and recall per kind on the labelled corpus
// (test/fixtures/guardrails/corpus.json), and the guards' CPU per KB of text, in one run:
//   default   the defaults every merchant gets (card numbers, mask)
//   all       every built-in detector on (card, email, phone, IBAN, national ids, IP, credentials) plus
//             both injection heuristics
//   stream    the defaults through the streaming masker, in 16-character chunks
// over two texts of 4 KB: prose with a few numbers and no sensitive value (the common case), and the same
// prose with a card number, an email and a key in it. CPU is process.cpuUsage() around ITERATIONS (2000)
// guard passes, after a warm-up, so it is the guard's own cost with no I/O.
// Runs from source: src/guardrails is bundled by esbuild into a temp file first (no build needed).
//   node bench/guardrails-bench.mjs            prints a table and a JSON line
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateCorpus, loadCorpus } from '../test/fixtures/guardrails/evaluate-corpus.mjs';

const iterations = Number(process.env.ITERATIONS ?? 2000);
const directory = mkdtempSync(join(tmpdir(), 'guardrails-bench-'));
const bundle = join(directory, 'guardrails.mjs');
await build({
  entryPoints: [new URL('../src/guardrails/index.ts', import.meta.url).pathname],
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: bundle,
  logLevel: 'error',
});
const guardrails = await import(bundle);
rmSync(directory, { recursive: true, force: true });

const { GuardPolicy, GuardSession, defaultGuardSettings, detectorKinds } = guardrails;
const detectors = {
  card: guardrails.detectCardNumbers,
  email: guardrails.detectEmails,
  phone: guardrails.detectPhones,
  iban: guardrails.detectIbans,
  'national-id': guardrails.detectNationalIds,
  ip: guardrails.detectIpAddresses,
  credential: guardrails.detectCredentials,
};

// Precision and recall per kind.
const corpus = loadCorpus();
const scores = evaluateCorpus(corpus, (text) => Object.values(detectors).flatMap((detect) => detect(text)), [...detectorKinds]);
console.log(`corpus: ${corpus.length} entries`);
console.log('kind         tp   fp   fn  precision  recall');
for (const [kind, s] of Object.entries(scores)) {
  console.log(
    `${kind.padEnd(12)} ${String(s.truePositives).padStart(3)}  ${String(s.falsePositives).padStart(3)}  ${String(s.falseNegatives).padStart(3)}  ${(s.precision * 100).toFixed(2).padStart(8)} %  ${(s.recall * 100).toFixed(2).padStart(5)} %`,
  );
}

// CPU per KB.
const sentence = 'The merchant asked why order 2026-11-29/48213 was declined at 14:05 for 129.90 EUR, and whether a retry on the second gateway would help. ';
const prose = sentence.repeat(Math.ceil(4096 / sentence.length)).slice(0, 4096);
const sensitive = `${prose.slice(0, 1000)} card 4111 1111 1111 1111, mail jane.doe@example.com, key sk-proj-${'a1B2'.repeat(12)} ${prose.slice(1100)}`.slice(
  0,
  4096,
);
const compile = (settings) => {
  const compiled = GuardPolicy.compile(settings);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.policy;
};
const allSettings = {
  ...Object.fromEntries(detectorKinds.map((kind) => [kind, { action: 'mask' }])),
  'prompt-injection': { action: 'log' },
  'indirect-injection': { action: 'log' },
};
const policies = { default: compile(defaultGuardSettings), all: compile(allSettings) };

function cpuPerKb(run, text) {
  for (let index = 0; index < 200; index += 1) run(text);
  const before = process.cpuUsage();
  for (let index = 0; index < iterations; index += 1) run(text);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / iterations / (Buffer.byteLength(text) / 1024);
}
const inputPass = (policy) => (text) => new GuardSession(policy).input(text, 'user');
const streamPass = (policy) => (text) => {
  const masker = new GuardSession(policy).stream();
  for (let at = 0; at < text.length; at += 16) masker.push(text.slice(at, at + 16));
  masker.end();
};
const cpu = {
  default_prose: cpuPerKb(inputPass(policies.default), prose),
  default_sensitive: cpuPerKb(inputPass(policies.default), sensitive),
  all_prose: cpuPerKb(inputPass(policies.all), prose),
  all_sensitive: cpuPerKb(inputPass(policies.all), sensitive),
  stream_default_prose: cpuPerKb(streamPass(policies.default), prose),
  stream_default_sensitive: cpuPerKb(streamPass(policies.default), sensitive),
};
console.log(`\nguard CPU per KB (µs), ${iterations} passes over 4 KB`);
for (const [name, value] of Object.entries(cpu)) console.log(`${name.padEnd(26)} ${value.toFixed(2).padStart(8)}`);
console.log(
  JSON.stringify({
    bench: 'guardrails',
    corpus: corpus.length,
    scores: Object.fromEntries(
      Object.entries(scores).map(([kind, s]) => [
        kind,
        { precision: s.precision, recall: s.recall, tp: s.truePositives, fp: s.falsePositives, fn: s.falseNegatives },
      ]),
    ),
    cpuMicrosPerKb: cpu,
  }),
);
