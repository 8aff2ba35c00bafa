import { describe, expect, it } from 'vitest';
import { parseClusterNodes } from '../../../src/adapters/redis/redis-target.js';
import { loadConfig } from '../../../src/config/load-config.js';

describe('REDIS_CLUSTER_NODES', () => {
  it('turns on distributed mode alone, its first seed standing in for REDIS_URL', () => {
    const config = loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, 10.0.0.2:7000' });
    expect(config.redisUrl).toBe('redis://10.0.0.1:7000');
    expect(parseClusterNodes(config.redisClusterNodes)).toEqual(['10.0.0.1:7000', '10.0.0.2:7000']);
  });

  it('keeps a given REDIS_URL (credentials and TLS for every node)', () => {
    const config = loadConfig({ REDIS_CLUSTER_NODES: 'a:1,b:2', REDIS_URL: 'rediss://u:p@a:1' });
    expect(config.redisUrl).toBe('rediss://u:p@a:1');
  });

  it('refuses a node without a port, naming the variable', () => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'a:1,b' })).toThrow(/REDIS_CLUSTER_NODES/);
  });

  it('leaves a plain REDIS_URL set-up without cluster nodes', () => {
    const config = loadConfig({ REDIS_URL: 'redis://primary:6379' });
    expect(config.redisClusterNodes).toBeUndefined();
    expect(parseClusterNodes(config.redisClusterNodes)).toBeUndefined();
  });
});
