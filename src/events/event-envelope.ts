import { topicOf, topics, type EventEnvelope, type EventPayloads, type EventType, type Topic } from '../ports/event-envelope.js';
import { uuidV7 } from './uuid-v7.js';

// The envelope and topic map are the EventBus port's records; re-exported for the ~50 modules that build or read events.
export { topicOf, topics, type EventEnvelope, type EventPayloads, type EventType, type Topic };

/** The Kafka message key: the entity whose order matters (the payment when there is one). */
export function partitionKeyOf(event: EventEnvelope): string {
  const payload = event.payload as { paymentId?: string | null };
  return payload.paymentId ?? event.merchantId;
}

export function createEvent<K extends EventType>(
  type: K,
  merchantId: string,
  payload: EventPayloads[K],
  nowMs: number = Date.now(),
  id: string = uuidV7(nowMs),
): EventEnvelope<K> {
  return { id, type, version: 1, occurredAt: nowMs, merchantId, payload } as EventEnvelope<K>;
}
