import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { composeValidator, readYaml, repoRoot } from './deploy-schemas.js';
// The names alone (cli/worker-names.ts), not the workers' code.
import { workerNames } from '../../../cli/worker-names.js';

interface ComposeService {
  image?: string;
  command?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

const path = join(repoRoot, 'deploy/docker-compose.yml');
const compose = readYaml(path) as ComposeFile;
const validate = composeValidator();
const brokers = ['kafka-1', 'kafka-2', 'kafka-3'];

describe('deploy/docker-compose.yml', () => {
  it('is valid against the Compose specification', () => {
    expect(validate(compose)).toEqual([]);
  });

  it('refuses a broken copy (a profile given as a string, an unknown key in a service)', () => {
    const broken = structuredClone(compose) as unknown as { services: Record<string, Record<string, unknown>> };
    broken.services['kafka-1']!.profiles = 'kafka-cluster';
    broken.services.api!.healthchek = broken.services.api!.healthcheck;
    const errors = validate(broken);
    expect(errors).toEqual(expect.arrayContaining([expect.stringContaining('/services/kafka-1/profiles must be array')]));
    expect(errors).toEqual(expect.arrayContaining(['/services/api must NOT have unevaluated properties (healthchek)']));
  });

  it('depends only on services and volumes it declares, and every dependency has a health check', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const dependency of Object.keys(service.depends_on ?? {})) {
        expect(compose.services[dependency], `${name} → ${dependency}`).toBeDefined();
        expect(compose.services[dependency]!.healthcheck, dependency).toBeDefined();
        // A default service never waits for one that only a profile starts.
        expect(compose.services[dependency]!.profiles, dependency).toBeUndefined();
      }
    }
  });

  it('runs the API and every `switchyard worker` without embedded workers', () => {
    expect(compose.services.api!.command).toEqual(['node', 'dist/cli/main.js', 'serve']);
    for (const worker of workerNames) {
      expect(compose.services[`worker-${worker}`]?.command, worker).toEqual(['node', 'dist/cli/main.js', 'worker', worker]);
      expect(compose.services[`worker-${worker}`]!.environment!.EMBEDDED_WORKERS).toBe('false');
    }
  });

  it('has an optional three-broker KRaft profile: three voters, replication factor 3, min.insync.replicas 2', () => {
    const nodes = brokers.map((name) => compose.services[name]!);
    const ids = nodes.map((node) => node.environment!.KAFKA_NODE_ID);
    expect(ids).toEqual(['1', '2', '3']);
    for (const [index, node] of nodes.entries()) {
      expect(node.profiles).toEqual(['kafka-cluster']);
      expect(node.image).toBe(compose.services.kafka!.image);
      const env = node.environment!;
      expect(env.KAFKA_PROCESS_ROLES).toBe('broker,controller');
      expect(env.KAFKA_CONTROLLER_QUORUM_VOTERS).toBe('1@kafka-1:9093,2@kafka-2:9093,3@kafka-3:9093');
      expect(env.KAFKA_ADVERTISED_LISTENERS).toContain(`PLAINTEXT://${brokers[index]}:9092`);
      expect(env).toMatchObject({
        KAFKA_DEFAULT_REPLICATION_FACTOR: '3',
        KAFKA_MIN_INSYNC_REPLICAS: '2',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '3',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '3',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '2',
      });
    }
    // One cluster id, one data volume per broker.
    expect(new Set(nodes.map((node) => node.environment!.CLUSTER_ID)).size).toBe(1);
    for (const name of brokers) expect(compose.volumes).toHaveProperty(`${name}-data`);
    // Without the profile nothing changes: the apps still default to the single broker.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Compose's own interpolation, kept as written.
    expect(compose.services.api!.environment!.KAFKA_BROKERS).toBe('${KAFKA_BROKERS:-kafka:9092}');
    expect(compose.services.kafka!.profiles).toBeUndefined();
  });

  it('parses as plain YAML too (no tabs, no duplicate keys)', () => {
    expect(() => parse(readFileSync(path, 'utf8'), { merge: true, uniqueKeys: true })).not.toThrow();
  });
});
