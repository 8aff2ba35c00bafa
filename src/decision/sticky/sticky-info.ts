import type { DecisionCreatedV1 } from '../../generated/schema-types.js';

/** What a decision records about sticky routing: the `sticky` of its `decision.created`. */
export type StickyInfo = NonNullable<DecisionCreatedV1['sticky']>;

/** What the sticky lookup did for one decision. */
export type StickyOutcome = StickyInfo['outcome'];
