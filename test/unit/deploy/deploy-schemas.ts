/*
 * Schema checks for the deployment files, offline: the Kubernetes definitions and the Compose
 * specification vendored under deploy/schemas by scripts/vendor-deploy-schemas.mjs (from the Go
 * module proxy), compiled with ajv. Kubernetes objects are strict (a field the API does not know
 * is refused), as kubeconform's -strict schemas are.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse, parseAllDocuments } from 'yaml';

export const repoRoot = new URL('../../..', import.meta.url).pathname;
const k8sDir = join(repoRoot, 'deploy/k8s');

interface VendoredKubernetes {
  readonly kinds: Record<string, string>;
  readonly definitions: Record<string, unknown>;
}

/** A Kubernetes object as the manifests hold it (only the fields the checks read are typed). */
export interface K8sObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are free-form; the schema check types them.
  readonly spec?: any;
  readonly data?: Record<string, string>;
  readonly stringData?: Record<string, string>;
}

/** Every manifest under deploy/k8s (subfolders too), kustomization files aside. */
export function manifestFiles(dir = k8sDir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return manifestFiles(path);
      return entry.name.endsWith('.yaml') && entry.name !== 'kustomization.yaml' ? [path] : [];
    })
    .sort();
}

/** The YAML documents of a file; a syntax error throws, naming it. */
export function readDocuments(path: string, text = readFileSync(path, 'utf8')): K8sObject[] {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0]?.message}`);
    return doc.toJS() as K8sObject;
  });
}

export function readYaml(path: string): unknown {
  // Compose files use YAML merge keys (`<<: *anchor`).
  return parse(readFileSync(path, 'utf8'), { merge: true });
}

// strict: false: the vendored schemas are what upstream publishes, not what ajv's strict mode wants.
const ajvOptions = { allErrors: true, strict: false, validateFormats: false } as const;

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => {
    const params = error.params as { additionalProperty?: string; unevaluatedProperty?: string };
    const property = params.additionalProperty ?? params.unevaluatedProperty;
    const extra = property === undefined ? '' : ` (${property})`;
    return `${error.instancePath || '/'} ${error.message ?? error.keyword}${extra}`;
  });
}

/** A validator per Kubernetes kind from deploy/schemas/kubernetes.json. */
export function kubernetesValidator(): (object: K8sObject) => string[] {
  const vendored = JSON.parse(readFileSync(join(repoRoot, 'deploy/schemas/kubernetes.json'), 'utf8')) as VendoredKubernetes;
  const compiler = new Ajv(ajvOptions);
  compiler.addSchema({ $id: 'k8s', definitions: vendored.definitions });
  const compiled = new Map<string, ValidateFunction>();
  return (object) => {
    const key = `${object?.apiVersion}/${object?.kind}`;
    const definition = vendored.kinds[key];
    if (definition === undefined) return [`no vendored schema for ${key} (rerun scripts/vendor-deploy-schemas.mjs)`];
    let validate = compiled.get(key);
    if (validate === undefined) {
      validate = compiler.compile({ $ref: `k8s#/definitions/${definition}` });
      compiled.set(key, validate);
    }
    return validate(object) ? [] : describe(validate.errors);
  };
}

/** The Compose specification's validator (deploy/schemas/compose-spec.json). */
export function composeValidator(): (file: unknown) => string[] {
  const schema = JSON.parse(readFileSync(join(repoRoot, 'deploy/schemas/compose-spec.json'), 'utf8')) as Record<string, unknown>;
  // JSON Schema 2020-12, as the specification declares.
  const validate = new Ajv2020(ajvOptions).compile(schema);
  return (file) => (validate(file) ? [] : describe(validate.errors));
}
