#!/usr/bin/env node
// scripts/compile.mjs emits the .js; this copies the other runtime files (the JSON the code imports,
// Lua scripts, SQL migrations, data lists) next to the compiled code so dist/ runs on its own.
import { cpSync, readdirSync, statSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const assetExtensions = ['.json', '.lua', '.sql', '.txt'];
const roots = ['src', 'schemas'];

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

let copied = 0;
for (const base of roots) {
  for (const file of walk(join(root, base))) {
    if (!assetExtensions.some((ext) => file.endsWith(ext))) continue;
    const target = join(root, 'dist', relative(root, file));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(file, target);
    copied++;
  }
}
console.log(`copied ${copied} runtime assets into dist/`);
