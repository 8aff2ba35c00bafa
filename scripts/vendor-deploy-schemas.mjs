#!/usr/bin/env node
// Vendors the JSON schemas the deploy tests check the manifests against (test/unit/deploy), so the
// test needs no network: the Kubernetes definitions of every kind deploy/k8s uses, cut out of
// k8s.io/kubernetes' swagger.json, and the Compose specification's schema. Both come from the Go
// module proxy (GitHub is not needed):
//   node scripts/vendor-deploy-schemas.mjs        # after adding a kind to deploy/k8s
// Definitions are made strict the way kubeconform's "-strict" schemas are: an object with declared
// properties refuses any other (a misspelt field fails), and int-or-string / Quantity take both.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';

const root = new URL('..', import.meta.url).pathname;
const kubernetesVersion = 'v1.34.2';
const composeGoVersion = 'v2.16.2';

/** The module's extracted directory, from the Go module proxy (GOPROXY) through the module cache. */
function goModuleDir(module, version) {
  const out = execFileSync('go', ['mod', 'download', '-json', `${module}@${version}`], {
    cwd: tmpdir(),
    encoding: 'utf8',
    env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  return JSON.parse(out).Dir;
}

/** Every manifest file under deploy/k8s except kustomization files. */
export function manifestFiles(dir = join(root, 'deploy/k8s')) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return manifestFiles(path);
    return entry.name.endsWith('.yaml') && entry.name !== 'kustomization.yaml' ? [path] : [];
  });
}

function usedKinds() {
  const kinds = new Set();
  for (const file of manifestFiles()) {
    for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
      const value = doc.toJS();
      if (value?.apiVersion && value?.kind) kinds.add(`${value.apiVersion}/${value.kind}`);
    }
  }
  return [...kinds].sort();
}

const refName = (ref) => ref.replace('#/definitions/', '');

function collectRefs(node, into) {
  if (Array.isArray(node)) for (const item of node) collectRefs(item, into);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') into.push(refName(value));
      else collectRefs(value, into);
    }
  }
}

/** Drops prose and vendor extensions; strict objects; the two string-or-number types take both. */
function strict(name, node) {
  if (name === 'io.k8s.apimachinery.pkg.util.intstr.IntOrString') return { anyOf: [{ type: 'string' }, { type: 'integer' }] };
  if (name === 'io.k8s.apimachinery.pkg.api.resource.Quantity') return { anyOf: [{ type: 'string' }, { type: 'number' }] };
  const clean = (value) => {
    if (Array.isArray(value)) return value.map(clean);
    if (!value || typeof value !== 'object') return value;
    const out = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'description' || key.startsWith('x-kubernetes-') || key === 'format') continue;
      out[key] = key === 'properties' ? Object.fromEntries(Object.entries(inner).map(([prop, schema]) => [prop, clean(schema)])) : clean(inner);
    }
    if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
    return out;
  };
  return clean(node);
}

function vendorKubernetes() {
  const dir = goModuleDir('k8s.io/kubernetes', kubernetesVersion);
  const swagger = JSON.parse(readFileSync(join(dir, 'api/openapi-spec/swagger.json'), 'utf8'));
  const kinds = {};
  for (const [name, definition] of Object.entries(swagger.definitions)) {
    for (const gvk of definition['x-kubernetes-group-version-kind'] ?? []) {
      const apiVersion = gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`;
      // A kind's own definition, not the shared DeleteOptions/WatchEvent every group lists.
      if (name.endsWith(`.${gvk.kind}`)) kinds[`${apiVersion}/${gvk.kind}`] = name;
    }
  }
  const wanted = usedKinds();
  const missing = wanted.filter((key) => kinds[key] === undefined);
  if (missing.length > 0) throw new Error(`no Kubernetes ${kubernetesVersion} definition for ${missing.join(', ')}`);
  const definitions = {};
  const queue = wanted.map((key) => kinds[key]);
  while (queue.length > 0) {
    const name = queue.shift();
    if (definitions[name] !== undefined) continue;
    const definition = swagger.definitions[name];
    if (definition === undefined) throw new Error(`swagger.json has no definition ${name}`);
    definitions[name] = strict(name, definition);
    collectRefs(definitions[name], queue);
  }
  const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => a.localeCompare(b)));
  const out = {
    source: `k8s.io/kubernetes@${kubernetesVersion} api/openapi-spec/swagger.json (Go module proxy), cut by ${relative(root, new URL(import.meta.url).pathname)}`,
    kinds: Object.fromEntries(wanted.map((key) => [key, kinds[key]])),
    definitions: sorted,
  };
  writeFileSync(join(root, 'deploy/schemas/kubernetes.json'), `${JSON.stringify(out, null, 1)}\n`);
  return wanted;
}

function vendorCompose() {
  const dir = goModuleDir('github.com/compose-spec/compose-go/v2', composeGoVersion);
  const schema = JSON.parse(readFileSync(join(dir, 'schema/compose-spec.json'), 'utf8'));
  schema.$comment = `github.com/compose-spec/compose-go/v2@${composeGoVersion} schema/compose-spec.json (Go module proxy)`;
  writeFileSync(join(root, 'deploy/schemas/compose-spec.json'), `${JSON.stringify(schema, null, 1)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const kinds = vendorKubernetes();
  vendorCompose();
  process.stdout.write(`deploy/schemas/kubernetes.json: ${kinds.join(', ')}\ndeploy/schemas/compose-spec.json: compose-go ${composeGoVersion}\n`);
}
