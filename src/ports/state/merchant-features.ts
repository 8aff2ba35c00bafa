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
  'volume-contracts',
] as const;

export type MerchantFeature = (typeof merchantFeatures)[number];

/** What the merchant has switched on; an absent flag is off. Stored whole as the `features` config. */
export type MerchantFeatureFlags = Readonly<Partial<Record<MerchantFeature, boolean>>>;
