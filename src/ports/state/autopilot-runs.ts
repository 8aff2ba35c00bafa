import type { AutopilotCalibratedV1 } from '../../generated/schema-types.js';

/**
 * What the autopilot did, per merchant: its last runs, newest first, kept as the ConfigStore
 * document `autopilotRuns` (written by the run, read by `GET /merchant-account/{id}/autopilot/runs`).
 * A run record is the `autopilot.calibrated` event's payload (schemas/events/autopilot.calibrated.v1.json):
 * one shape for the store, the bus and the route.
 */
export type AutopilotRun = AutopilotCalibratedV1;

/**
 * One segment's outcome: `created` (a new autopilot entry), `updated` (moved past a deadband),
 * `unchanged` (within both deadbands, or kept as it was), `human` (a human-authored entry covers the segment).
 */
export type AutopilotSegmentChange = AutopilotRun['segments'][number];

/** A segment's key in the success-rate config's sub-level vocabulary (null = not narrowed). */
export type AutopilotSegment = AutopilotSegmentChange['segment'];

/** The two knobs the autopilot tunes. */
export type AutopilotSettings = AutopilotSegmentChange['proposed'];

/** A candidate configuration the run weighed, with its estimate when one could be made. */
export type AutopilotCandidate = AutopilotRun['candidates'][number];

/** The last runs, newest first (at most {@link autopilotRunsKept}). */
export interface AutopilotRunLog {
  readonly runs: readonly AutopilotRun[];
}

export const autopilotRunsKept = 50;
