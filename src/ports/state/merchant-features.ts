/**
 * The merchant-level switches decision-engine's current line lists under
 * `GET /merchant-account/{id}/features`, by the slugs its dashboard sends. Every flag is off until
 * the merchant turns it on (the peer's default).
 */
export const merchantFeatures = [
  'gsm-scoring-filter',
  'explore-exploit-srv3',
  'ab-test-real-payments',
  'multi-objective-routing',
  'elimination',
  'auto-calibration',
  'autopilot',
  // decision-engine's newer line (#433): volume-commitment steering, and the gate of /routing/hybrid's dynamic (SR) half.
  'volume-contracts',
  'sr-routing',
  // Switchyard's own (issue 36; the peer's open #393): pin a customer to its habitual connector.
  'sticky-routing',
] as const;

export type MerchantFeature = (typeof merchantFeatures)[number];

/** What the merchant has switched on; an absent flag is off. Stored whole as the `features` config. */
export type MerchantFeatureFlags = Readonly<Partial<Record<MerchantFeature, boolean>>>;
