import { createEvent, type EventPayloads } from '../events/event-envelope.js';
import type { Logger } from '../logging/logger.js';
import type { EventBus } from '../ports/event-bus.js';
import type { ToolRun, ToolRunRecorder } from './tool-audit.js';

/** The `tool.executed` payload of a run: every field present; never the arguments or the result. */
export function toolRunPayload(run: ToolRun): EventPayloads['tool.executed'] {
  return {
    origin: run.origin,
    category: run.category,
    serverId: run.serverId === null ? null : run.serverId.slice(0, 64),
    owner: run.owner,
    tool: run.tool.slice(0, 256),
    outcome: run.outcome,
    errorCode: run.errorCode === null ? null : run.errorCode.slice(0, 64),
    durationMs: run.durationMs,
    argumentBytes: run.argumentBytes,
    requestId: run.requestId === null ? null : run.requestId.slice(0, 128),
    surface: run.surface === null ? null : run.surface.slice(0, 32),
  };
}

/**
 * A recorder that publishes every tool run as a `tool.executed` event (topic `api`, keyed by the
 * merchant). Fire-and-forget like the auth audit: a tool's answer never waits on the bus, and a
 * refused publish is logged with the event id, never thrown into the call.
 */
export function toolRunPublisher(bus: EventBus, options: { readonly now?: () => number; readonly logger?: Logger } = {}): ToolRunRecorder {
  const now = options.now ?? Date.now;
  return (run) => {
    const event = createEvent('tool.executed', run.merchantId, toolRunPayload(run), now());
    bus.publish([event]).catch((error: unknown) => {
      options.logger?.error({ err: error, eventId: event.id, tool: run.tool }, 'tool.executed event could not be published');
    });
  };
}
