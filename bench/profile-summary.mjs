#!/usr/bin/env node
// Summarises a V8 .cpuprofile (node --cpu-prof): self and total time per function, the top TOP (40)
// by each, as a share of the sampled time and of the non-idle time. `node bench/profile-summary.mjs
// <file.cpuprofile> [filter]`: with a filter (a substring of "function file:line"), only the frames
// that match, total time counting each sample once however often the frame recurs on its stack.
// FROM_MS / TO_MS keep only the samples that many ms after the profile's start (e.g. the load window,
// leaving out start-up and shutdown).
import { readFileSync } from 'node:fs';
import { frameName } from './lib/profile-frame.mjs';

const [file, filter] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/profile-summary.mjs <file.cpuprofile> [filter]');
const top = Number(process.env.TOP ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const keyOf = (node) => frameName(node.callFrame);

// Time per sample: the delta before it (V8's timeDeltas), in µs.
const selfUs = new Map();
const totalUs = new Map();
let sampled = 0;
let idle = 0;
const fromUs = 1000 * Number(process.env.FROM_MS ?? 0);
const toUs = 1000 * Number(process.env.TO_MS ?? Number.POSITIVE_INFINITY);
let at = 0;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i];
  const dt = profile.timeDeltas[i + 1] ?? 0;
  if (at < fromUs || at > toUs) continue;
  sampled += dt;
  const leaf = byId.get(profile.samples[i]);
  const leafKey = keyOf(leaf);
  if (leaf.callFrame.functionName === '(idle)') idle += dt;
  selfUs.set(leafKey, (selfUs.get(leafKey) ?? 0) + dt);
  const seen = new Set();
  for (let id = leaf.id; id !== undefined; id = parent.get(id)) {
    const key = keyOf(byId.get(id));
    if (seen.has(key)) continue;
    seen.add(key);
    totalUs.set(key, (totalUs.get(key) ?? 0) + dt);
  }
}
const busy = sampled - idle;
const pct = (us, of) => `${((100 * us) / of).toFixed(1).padStart(5)} %`;
const rows = (map) =>
  [...map]
    .filter(([key]) => filter === undefined || key.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top);
console.log(`${file}: ${(sampled / 1e6).toFixed(2)} s sampled, ${(idle / 1e6).toFixed(2)} s idle, ${(busy / 1e6).toFixed(2)} s busy`);
console.log(`\nself time (of busy):`);
for (const [key, us] of rows(selfUs)) console.log(`${pct(us, busy)}  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
console.log(`\ntotal time (of busy):`);
for (const [key, us] of rows(totalUs)) console.log(`${pct(us, busy)}  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
