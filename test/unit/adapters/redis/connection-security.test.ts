import type { Cluster, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createRedisClient } from '../../../../src/adapters/redis/redis-connection.js';
import { kafkaConnectionOf } from '../../../../src/adapters/kafka/kafka-connection.js';

/**
 * The one Redis connection builder gives every client the credentials and TLS of the target (the
 * variables winning over the URL), on one server and on each node of a cluster; the Kafka builder
 * gives every client the same TLS and SASL. No connection is opened (lazyConnect).
 */
const ca = Buffer.from('-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n');
const cert = Buffer.from('-----BEGIN CERTIFICATE-----\nCLIENT\n-----END CERTIFICATE-----\n');
const key = Buffer.from('-----BEGIN PRIVATE KEY-----\nKEY\n-----END PRIVATE KEY-----\n');

describe('Redis connection options', () => {
  it('gives a single server the variables over the URL credentials, and TLS with the CA and client certificate', () => {
    const client = createRedisClient(
      { url: 'rediss://url-user:url-pass@redis.example:6380/2', security: { username: 'acl', password: 'pw', tls: { ca, cert, key } } },
      { lazyConnect: true },
    ) as Redis;
    expect(client.options).toMatchObject({ host: 'redis.example', port: 6380, db: 2, username: 'acl', password: 'pw', tls: { ca, cert, key } });
    client.disconnect();
  });

  it('keeps the URL credentials, decoded, without security settings; TLS with the system CAs for rediss://', () => {
    const client = createRedisClient({ url: 'rediss://app:p%40ss@redis.example:6380' }, { lazyConnect: true }) as Redis;
    expect(client.options).toMatchObject({ username: 'app', password: 'p@ss', tls: {} });
    client.disconnect();
    const plain = createRedisClient({ url: 'redis://redis.example:6379', security: { password: 'pw' } }, { lazyConnect: true }) as Redis;
    expect(plain.options.tls).toBeUndefined();
    expect(plain.options.password).toBe('pw');
    plain.disconnect();
  });

  it('gives every node of a cluster the same credentials and TLS', () => {
    const cluster = createRedisClient(
      { url: 'rediss://seed:7000', clusterNodes: ['a:7000', 'b:7001'], security: { username: 'acl', password: 'pw', tls: { ca } } },
      { lazyConnect: true, connectionName: 'x' },
    ) as Cluster;
    expect(cluster.options.redisOptions).toMatchObject({ username: 'acl', password: 'pw', tls: { ca }, connectionName: 'x' });
    cluster.disconnect();
  });
});

describe('Kafka connection options', () => {
  it('carries TLS material and SASL to every client, nothing for PLAINTEXT', () => {
    expect(kafkaConnectionOf('c', ['k:9093'], { tls: { ca, cert, key }, sasl: { mechanism: 'SCRAM-SHA-256', username: 'u', password: 'p' } })).toEqual({
      clientId: 'c',
      bootstrapBrokers: ['k:9093'],
      connectTimeout: 3000,
      tls: { ca, cert, key },
      sasl: { mechanism: 'SCRAM-SHA-256', username: 'u', password: 'p' },
    });
    expect(kafkaConnectionOf('c', ['k:9092'], undefined)).toEqual({ clientId: 'c', bootstrapBrokers: ['k:9092'], connectTimeout: 3000 });
    expect(kafkaConnectionOf('c', ['k:9093'], { tls: {} })).toMatchObject({ tls: {} });
  });
});
