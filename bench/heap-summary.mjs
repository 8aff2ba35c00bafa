#!/usr/bin/env node
// Summarises a V8 heap snapshot (a service run with SERVICE_NODE_FLAGS='--heapsnapshot-signal=SIGUSR2
// --diagnostic-dir=<dir>', then `kill -USR2 <pid>`): total self size and object count, then the TOP (40)
// groups by self size. A group is an object's type and constructor name; strings longer than 40
// characters are grouped by their first 30 with digits masked, so 500,000 contexts of one form are one
// line. `node bench/heap-summary.mjs <file.heapsnapshot>`.
// Reads the file as bytes and parses its node array by hand: a snapshot of a service at its bounds is
// over the 512 MB a single JavaScript string may hold, so JSON.parse of the whole file fails.
import { readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file) throw new Error('usage: node bench/heap-summary.mjs <file.heapsnapshot>');
const top = Number(process.env.TOP ?? 40);
const bytes = readFileSync(file);
const at = (text, from = 0) => {
  const index = bytes.indexOf(Buffer.from(text), from);
  if (index < 0) throw new Error(`${file}: no ${text} (not a complete heap snapshot?)`);
  return index;
};

const nodesAt = at('"nodes":[');
const edgesAt = at('"edges":[', nodesAt);
const stringsAt = at('"strings":[', edgesAt);
const meta = JSON.parse(
  bytes
    .subarray(at('{"snapshot":') + '{"snapshot":'.length, nodesAt)
    .toString()
    .replace(/,\s*$/, ''),
).meta;
// The strings array is the last member: from its '[' to the file's last ']'.
const strings = JSON.parse(bytes.subarray(stringsAt + '"strings":'.length, bytes.lastIndexOf(']') + 1).toString());

/** The unsigned integers of bytes[start, end): the flat node array, without building its text. */
function integers(start, end) {
  const out = [];
  let value = 0;
  let inNumber = false;
  for (let index = start; index < end; index += 1) {
    const byte = bytes[index];
    if (byte >= 48 && byte <= 57) {
      value = value * 10 + (byte - 48);
      inNumber = true;
    } else if (inNumber) {
      out.push(value);
      value = 0;
      inNumber = false;
    }
  }
  return out;
}

const nodes = integers(nodesAt + '"nodes":['.length, edgesAt);
const fields = meta.node_fields;
const width = fields.length;
const types = meta.node_types[0];
const typeAt = fields.indexOf('type');
const nameAt = fields.indexOf('name');
const sizeAt = fields.indexOf('self_size');
const stringTypes = new Set(['string', 'concatenated string', 'sliced string']);

const groups = new Map();
let total = 0;
for (let index = 0; index < nodes.length; index += width) {
  const type = types[nodes[index + typeAt]];
  const size = nodes[index + sizeAt];
  const name = strings[nodes[index + nameAt]] ?? '';
  total += size;
  let key;
  if (stringTypes.has(type)) key = `${type}: ${name.length > 40 ? name.slice(0, 30).replace(/[0-9]/g, '#') : '(40 characters or fewer)'}`;
  else if (type === 'code') key = 'code';
  else key = `${type}: ${name.slice(0, 40)}`;
  const group = groups.get(key) ?? { count: 0, size: 0 };
  group.count += 1;
  group.size += size;
  groups.set(key, group);
}

console.log(`${file}: ${(total / 1e6).toFixed(1)} MB in ${(nodes.length / width).toLocaleString('en-US')} objects`);
console.log('      MB    objects  group');
for (const [key, group] of [...groups].sort((a, b) => b[1].size - a[1].size).slice(0, top)) {
  console.log(`${(group.size / 1e6).toFixed(1).padStart(8)} ${String(group.count).padStart(10)}  ${key.replace(/\s+/g, ' ')}`);
}
