import { describe, expect, it } from 'vitest';
import { parsePartitionsByTopic, resolveTopicLayout, topicMismatches } from '../../../../src/adapters/kafka/topic-layout.js';

describe('Kafka topic layout', () => {
  it('defaults to three copies and min.insync.replicas 2 on a cluster of three or more brokers', () => {
    expect(resolveTopicLayout({ partitions: 6 }, 5)).toEqual({
      replicationFactor: 3,
      minInsyncReplicas: 2,
      partitions: { routing: 6, scores: 6, api: 6, llm: 6 },
    });
  });

  it('defaults to the broker count (and min.insync.replicas 1) on a smaller cluster', () => {
    expect(resolveTopicLayout({ partitions: 3 }, 1)).toMatchObject({ replicationFactor: 1, minInsyncReplicas: 1 });
    expect(resolveTopicLayout({ partitions: 3 }, 2)).toMatchObject({ replicationFactor: 2, minInsyncReplicas: 1 });
  });

  it('takes explicit settings and per-topic partitions', () => {
    const layout = resolveTopicLayout({ replicationFactor: 2, minInsyncReplicas: 2, partitions: 3, partitionsByTopic: 'routing=12, llm=24' }, 3);
    expect(layout).toEqual({ replicationFactor: 2, minInsyncReplicas: 2, partitions: { routing: 12, scores: 3, api: 3, llm: 24 } });
  });

  it('refuses a replication factor above the broker count and min.insync.replicas above the replication factor', () => {
    expect(() => resolveTopicLayout({ replicationFactor: 3, partitions: 3 }, 1)).toThrow(/KAFKA_REPLICATION_FACTOR is 3 but the cluster has 1 broker/);
    expect(() => resolveTopicLayout({ replicationFactor: 2, minInsyncReplicas: 3, partitions: 3 }, 3)).toThrow(/KAFKA_MIN_INSYNC_REPLICAS \(3\) is above/);
  });

  it('refuses a malformed per-topic list, naming the entry', () => {
    for (const text of ['routing', 'payments=3', 'routing=0', 'routing=2,routing=3', 'llm=x']) {
      expect(() => parsePartitionsByTopic(text), text).toThrow(/KAFKA_TOPIC_PARTITIONS/);
    }
    expect(parsePartitionsByTopic(' ')).toEqual({});
  });

  it('names every difference of an existing topic, and none when it matches', () => {
    const layout = resolveTopicLayout({ partitions: 3 }, 3);
    expect(topicMismatches(layout, { topic: 'routing', partitions: 3, replicationFactor: 3, minInsyncReplicas: 2 }, 'sy.routing')).toEqual([]);
    expect(topicMismatches(layout, { topic: 'routing', partitions: 6, replicationFactor: 1, minInsyncReplicas: 1 }, 'sy.routing')).toEqual([
      'sy.routing has 6 partition(s), 3 configured',
      'sy.routing has replication factor 1, 3 configured',
      'sy.routing has min.insync.replicas 1, 2 configured',
    ]);
  });
});
