import { topics, type Topic } from '../../events/event-envelope.js';
import { SwitchyardError } from '../../errors/switchyard-error.js';

/** What the operator set (KAFKA_REPLICATION_FACTOR, KAFKA_MIN_INSYNC_REPLICAS, KAFKA_PARTITIONS, KAFKA_TOPIC_PARTITIONS). */
export interface TopicLayoutSettings {
  /** Copies of each partition; unset: 3 on a cluster of three or more brokers, else the broker count. */
  readonly replicationFactor?: number | undefined;
  /** Copies an acks=all write must reach; unset: 2 when the replication factor is 3 or more, else 1. */
  readonly minInsyncReplicas?: number | undefined;
  /** Partitions of a topic the per-topic list does not name. */
  readonly partitions: number;
  /** `routing=12,llm=6`: partitions per topic, overriding `partitions`. */
  readonly partitionsByTopic?: string | undefined;
}

/** The shape every topic of the bus must have, resolved against the cluster's size. */
export interface TopicLayout {
  readonly replicationFactor: number;
  readonly minInsyncReplicas: number;
  readonly partitions: Readonly<Record<Topic, number>>;
}

/** A topic as the cluster reports it. */
export interface ObservedTopic {
  readonly topic: Topic;
  readonly partitions: number;
  /** The fewest replicas any of its partitions has. */
  readonly replicationFactor: number;
  /** Its `min.insync.replicas` (the topic's own or the broker default it inherits). */
  readonly minInsyncReplicas: number;
}

function misconfigured(message: string): SwitchyardError {
  return new SwitchyardError('SY_CONFIG_INVALID', { message });
}

/** Parses `routing=12,llm=6`; refuses an unknown topic, a repeat or a count below 1, naming the variable. */
export function parsePartitionsByTopic(text: string | undefined): Partial<Record<Topic, number>> {
  const partitions: Partial<Record<Topic, number>> = {};
  if (text === undefined || text.trim() === '') return partitions;
  for (const entry of text.split(',')) {
    const match = /^\s*([a-z]+)\s*=\s*(\d+)\s*$/.exec(entry);
    const topic = match?.[1] as Topic | undefined;
    const count = Number(match?.[2]);
    if (topic === undefined || !topics.includes(topic) || !(count >= 1) || partitions[topic] !== undefined) {
      throw misconfigured(`KAFKA_TOPIC_PARTITIONS: "${entry.trim()}" is not <topic>=<partitions ≥ 1> for one of ${topics.join(', ')}, each once`);
    }
    partitions[topic] = count;
  }
  return partitions;
}

/**
 * The layout for a cluster of `brokerCount` brokers. A replication factor above the broker count,
 * or a `min.insync.replicas` above the replication factor, could never take a write: refused here,
 * at start, rather than by the broker on the first produce.
 */
export function resolveTopicLayout(settings: TopicLayoutSettings, brokerCount: number): TopicLayout {
  const replicationFactor = settings.replicationFactor ?? Math.max(1, Math.min(3, brokerCount));
  if (replicationFactor > brokerCount) {
    throw misconfigured(`KAFKA_REPLICATION_FACTOR is ${replicationFactor} but the cluster has ${brokerCount} broker(s)`);
  }
  const minInsyncReplicas = settings.minInsyncReplicas ?? (replicationFactor >= 3 ? 2 : 1);
  if (minInsyncReplicas > replicationFactor) {
    throw misconfigured(`KAFKA_MIN_INSYNC_REPLICAS (${minInsyncReplicas}) is above the replication factor (${replicationFactor})`);
  }
  const byTopic = parsePartitionsByTopic(settings.partitionsByTopic);
  const partitions = Object.fromEntries(topics.map((topic) => [topic, byTopic[topic] ?? settings.partitions])) as Record<Topic, number>;
  return { replicationFactor, minInsyncReplicas, partitions };
}

/**
 * How an existing topic differs from the layout, one sentence each; empty when it matches. More
 * partitions than asked for is a mismatch too: keys would hash to other partitions than the
 * operator planned consumers for.
 */
export function topicMismatches(layout: TopicLayout, observed: ObservedTopic, topicName: string): string[] {
  const problems: string[] = [];
  const wanted = layout.partitions[observed.topic];
  if (observed.partitions !== wanted) problems.push(`${topicName} has ${observed.partitions} partition(s), ${wanted} configured`);
  if (observed.replicationFactor !== layout.replicationFactor) {
    problems.push(`${topicName} has replication factor ${observed.replicationFactor}, ${layout.replicationFactor} configured`);
  }
  if (observed.minInsyncReplicas !== layout.minInsyncReplicas) {
    problems.push(`${topicName} has min.insync.replicas ${observed.minInsyncReplicas}, ${layout.minInsyncReplicas} configured`);
  }
  return problems;
}
