/**
 * `routing_approach` values (decision-engine GatewayDeciderApproach, §3.7). The SR v2 and global
 * downtime values are listed for wire completeness; this implementation never produces them.
 */
export const routingApproaches = [
  'SR_SELECTION',
  'SR_SELECTION_V2_ROUTING',
  'SR_SELECTION_V3_ROUTING',
  'PRIORITY_LOGIC',
  'DEFAULT',
  'NONE',
  'MERCHANT_PREFERENCE',
  'PL_ALL_DOWNTIME_ROUTING',
  'PL_DOWNTIME_ROUTING',
  'PL_GLOBAL_DOWNTIME_ROUTING',
  'SR_V2_ALL_DOWNTIME_ROUTING',
  'SR_V2_DOWNTIME_ROUTING',
  'SR_V2_GLOBAL_DOWNTIME_ROUTING',
  'SR_V2_HEDGING',
  'SR_V2_ALL_DOWNTIME_HEDGING',
  'SR_V2_DOWNTIME_HEDGING',
  'SR_V2_GLOBAL_DOWNTIME_HEDGING',
  'SR_V3_ALL_DOWNTIME_ROUTING',
  'SR_V3_DOWNTIME_ROUTING',
  'SR_V3_GLOBAL_DOWNTIME_ROUTING',
  'SR_V3_HEDGING',
  'SR_V3_ALL_DOWNTIME_HEDGING',
  'SR_V3_DOWNTIME_HEDGING',
  'SR_V3_GLOBAL_DOWNTIME_HEDGING',
  'NTW_BASED_ROUTING',
  'AB_TEST_STATIC_ALGORITHM',
  'SR_SELECTION_MULTI_OBJECTIVE',
  'SR_SELECTION_VOLUME_COMMITMENT',
  // Sticky routing pinned the customer's habitual connector (the peer's open #412 label).
  'STICKY_ROUTING',
] as const;
export type RoutingApproach = (typeof routingApproaches)[number];

/** `reset_approach` values (ResetApproach, §3.7). Without the reset flags it is always NO_RESET. */
export const resetApproaches = ['ELIMINATION_RESET', 'SRV2_RESET', 'SRV3_RESET', 'NO_RESET', 'SRV2_ELIMINATION_RESET', 'SRV3_ELIMINATION_RESET'] as const;
export type ResetApproach = (typeof resetApproaches)[number];
