import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type K8sObject, kubernetesValidator, manifestFiles, readDocuments, repoRoot } from './deploy-schemas.js';
// The names alone (cli/worker-names.ts), not the workers' code.
import { workerNames } from '../../../cli/worker-names.js';

const validate = kubernetesValidator();
const files = manifestFiles();
const objects = files.flatMap((file) => readDocuments(file).map((object) => ({ file: relative(repoRoot, file), object })));
const base = objects.filter(({ file }) => !file.startsWith('deploy/k8s/managed/')).map(({ object }) => object);
const ofKind = (kind: string, from: readonly K8sObject[] = base) => from.filter((object) => object.kind === kind);
const named = (kind: string, name: string) => ofKind(kind).find((object) => object.metadata.name === name);
const baseEnv = base.find((object) => object.kind === 'ConfigMap' && object.metadata.name === 'switchyard-env')?.data ?? {};
const containerOf = (deployment: K8sObject) => deployment.spec.template.spec.containers[0];

describe('deploy/k8s manifests against the Kubernetes 1.34 schemas', () => {
  it('finds the manifests', () => {
    expect(files.map((file) => relative(repoRoot, file))).toEqual(
      expect.arrayContaining([
        'deploy/k8s/app/api.yaml',
        'deploy/k8s/app/workers.yaml',
        'deploy/k8s/app/autoscaling.yaml',
        'deploy/k8s/app/disruption-budgets.yaml',
        'deploy/k8s/managed/settings.yaml',
      ]),
    );
  });

  it.each(objects.map(({ file, object }) => [`${file} ${object?.kind}/${object?.metadata?.name}`, object] as const))('%s is valid', (_name, object) => {
    expect(validate(object)).toEqual([]);
  });

  it('refuses a broken copy of the API Deployment, naming each fault', () => {
    const api = structuredClone(named('Deployment', 'api')) as K8sObject;
    // A misspelt field, a number where a string belongs and a probe without a port.
    api.spec.replica = 2;
    api.spec.template.spec.containers[0].image = 42;
    delete api.spec.template.spec.containers[0].readinessProbe.httpGet.port;
    const errors = validate(api);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringContaining('/spec must NOT have additional properties (replica)'),
        expect.stringContaining('/spec/template/spec/containers/0/image must be string'),
        expect.stringMatching(/readinessProbe\/httpGet must have required property 'port'/),
      ]),
    );
    expect(validate({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'x' } })).toEqual([
      expect.stringContaining('no vendored schema for autoscaling/v1/HorizontalPodAutoscaler'),
    ]);
  });
});

describe('deploy/k8s: the pieces fit together', () => {
  it('runs the API as `serve` without embedded workers, probed on routes the service has', () => {
    const container = containerOf(named('Deployment', 'api')!);
    expect(container.command).toEqual(['node', 'dist/cli/main.js', 'serve']);
    expect(baseEnv.EMBEDDED_WORKERS).toBe('false');
    expect(container.readinessProbe.httpGet.path).toBe('/health/ready');
    const healthRoutes = readFileSync(join(repoRoot, 'api/routes/health.ts'), 'utf8');
    expect(healthRoutes).toContain(`'${container.readinessProbe.httpGet.path}'`);
    expect(healthRoutes).toContain(`'${container.livenessProbe.httpGet.path}'`);
    expect(container.ports[0].containerPort).toBe(Number(baseEnv.PORT));
    const service = named('Service', 'api')!;
    expect(service.spec.selector).toEqual(named('Deployment', 'api')!.spec.selector.matchLabels);
  });

  it('has one Deployment per `switchyard worker` name, each running it', () => {
    for (const worker of workerNames) {
      const deployment = named('Deployment', `worker-${worker}`);
      expect(deployment, `worker-${worker}`).toBeDefined();
      expect(containerOf(deployment!).command).toEqual(['node', 'dist/cli/main.js', 'worker', worker]);
    }
    const commands = ofKind('Deployment').map((deployment) => containerOf(deployment).command.slice(2));
    for (const command of commands) if (command[0] === 'worker') expect(workerNames).toContain(command[1]);
  });

  it('autoscales the API on CPU and the Kafka workers on their consumer group lag, never past the partitions', () => {
    const hpas = ofKind('HorizontalPodAutoscaler');
    for (const hpa of hpas) expect(named('Deployment', hpa.spec.scaleTargetRef.name), hpa.metadata.name).toBeDefined();
    expect(named('HorizontalPodAutoscaler', 'api')!.spec.metrics[0].resource.name).toBe('cpu');
    for (const worker of ['sr-windows', 'analytics-sink']) {
      const hpa = named('HorizontalPodAutoscaler', `worker-${worker}`)!;
      const external = hpa.spec.metrics[0].external;
      expect(external.metric.name).toBe('kafka_consumergroup_lag');
      expect(external.metric.selector.matchLabels.consumergroup).toBe(`${baseEnv.KAFKA_TOPIC_PREFIX ?? 'switchyard.'}${worker}`);
      expect(hpa.spec.maxReplicas).toBeLessThanOrEqual(Number(baseEnv.KAFKA_PARTITIONS));
    }
    // Every Deployment's CPU request is set: a CPU utilisation target is a share of it.
    for (const deployment of ofKind('Deployment')) expect(containerOf(deployment).resources.requests.cpu, deployment.metadata.name).toBeDefined();
  });

  it('gives every Deployment a PodDisruptionBudget selecting its pods', () => {
    const budgets = ofKind('PodDisruptionBudget');
    for (const deployment of ofKind('Deployment')) {
      const labels = deployment.spec.template.metadata.labels as Record<string, string>;
      const budget = budgets.find((pdb) => Object.entries(pdb.spec.selector.matchLabels).every(([key, value]) => labels[key] === value));
      expect(budget, deployment.metadata.name).toBeDefined();
    }
  });

  it('names only settings docs/configuration.md documents', () => {
    const documented = readFileSync(join(repoRoot, 'docs/configuration.md'), 'utf8');
    const settings = objects
      .map(({ object }) => object)
      .filter((object) => object.kind === 'ConfigMap' || object.kind === 'Secret')
      .flatMap((object) => Object.keys({ ...object.data, ...object.stringData }));
    expect(settings).toEqual(
      expect.arrayContaining([
        'KAFKA_BROKERS',
        'KAFKA_REPLICATION_FACTOR',
        'KAFKA_MIN_INSYNC_REPLICAS',
        'REDIS_URL',
        'CLICKHOUSE_URL',
        'JWT_SECRET',
        'ADMIN_SECRET',
      ]),
    );
    for (const name of settings) expect(documented, name).toMatch(new RegExp(`\`${name}\``));
  });

  it('lists every manifest in exactly one kustomization: app/, the development root and managed/', () => {
    const k8s = join(repoRoot, 'deploy/k8s');
    const resourcesOf = (dir: string) =>
      (parse(readFileSync(join(k8s, dir, 'kustomization.yaml'), 'utf8')) as { resources: string[] }).resources.map((resource) => join(dir, resource));
    const listed = ['app', '.', 'managed'].flatMap(resourcesOf);
    const dirs = ['app', '../app'].map((dir) => join('managed', dir));
    // Directories are other kustomizations (app/ from the root and from managed/); files are manifests.
    const listedFiles = listed.filter((resource) => resource.endsWith('.yaml')).sort();
    expect(listedFiles).toEqual(files.map((file) => relative(k8s, file)).sort());
    expect(listed.filter((resource) => !resource.endsWith('.yaml')).sort()).toEqual(['app', join(dirs[1]!)].sort());
  });

  it('gives the managed overlay every setting the development one has, pointed at external clusters', () => {
    const settings = readDocuments(join(repoRoot, 'deploy/k8s/managed/settings.yaml'));
    const configMap = settings.find((object) => object.kind === 'ConfigMap')!;
    const secret = settings.find((object) => object.kind === 'Secret')!;
    const devSecret = named('Secret', 'switchyard-secrets')!;
    expect(Object.keys(configMap.data!)).toEqual(expect.arrayContaining(Object.keys(baseEnv)));
    expect(Object.keys(secret.stringData!).sort()).toEqual(Object.keys(devSecret.stringData!).sort());
    expect(configMap.data).toMatchObject({ KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2', EMBEDDED_WORKERS: 'false' });
    expect(configMap.data!.KAFKA_BROKERS!.split(',')).toHaveLength(3);
    // The lag autoscalers may grow to the overlay's partition count, not past it.
    const managed = parse(readFileSync(join(repoRoot, 'deploy/k8s/managed/kustomization.yaml'), 'utf8')) as {
      patches: { patch: string; target: { name: string } }[];
    };
    const maxReplicas = managed.patches.find((entry) => entry.target?.name.includes('sr-windows'))!;
    const [operation] = parse(maxReplicas.patch) as { path: string; value: number }[];
    expect(operation).toMatchObject({ path: '/spec/maxReplicas' });
    expect(operation!.value).toBeLessThanOrEqual(Number(configMap.data!.KAFKA_PARTITIONS));
  });
});
