// Filled success-rate windows for the decide benches (SR_WINDOWS=filled). A merchant that has run
// traffic for a while has every window full of outcomes, so its SR scores are fractions; a bench on
// empty windows scores every gateway 1 and measures a decision no such merchant makes (the scores'
// arrays and fields stay small integers, and no fraction is ever written as JSON).

/**
 * Whether SR_WINDOWS asks for filled windows: `filled`, or `empty` (the default, also when unset).
 * Every bench that takes it reads it here, so a misspelt value is refused instead of measuring
 * empty windows unasked.
 */
export function filledWindowsAsked(env = process.env) {
  const value = env.SR_WINDOWS ?? 'empty';
  if (value !== 'filled' && value !== 'empty') throw new Error(`SR_WINDOWS takes filled or empty; got "${value}"`);
  return value === 'filled';
}

/** The windows' bucket: the benches' merchants are configured with defaultBucketSize 125. */
export const benchBucketSize = 125;

/**
 * Successes per bucket of each gateway: 92.0, 90.4 and 91.2 %, close as live gateways' rates are.
 * SR orders stripe, checkout, adyen; with the bench's seed costs (benchSeedCosts) checkout has the
 * higher expected value than stripe at margin 1 and 0.5 alike, so the cost step still promotes it,
 * and adyen (the sticky customers' habit) scores 98 % of the top, so the sticky veto lets it pin.
 */
export const benchWindowSuccesses = { stripe: 115, adyen: 113, checkout: 114 };

/** One bucket of outcomes per gateway (true: a success), each gateway's failures spread evenly over it. */
export function benchWindowBucket() {
  return Array.from({ length: benchBucketSize }, (_, slot) =>
    Object.fromEntries(
      Object.entries(benchWindowSuccesses).map(([gateway, successes]) => {
        const failures = benchBucketSize - successes;
        const failed = Math.floor(((slot + 1) * failures) / benchBucketSize) > Math.floor((slot * failures) / benchBucketSize);
        return [gateway, !failed];
      }),
    ),
  );
}

/**
 * Fills every window the decide mix reads (three cards × the three gateways) with
 * {@link benchWindowBucket}: a decision per card and slot, then one feedback per gateway for it
 * (feedback may name any gateway), then decides until every card's scores are the bucket's (the
 * worker applies feedback in order). The same bucket is sent for every card in turn, so cards that
 * share a window (its dimension leaves some of a card's fields out) end as one with its own does.
 * `post(path, payload)` sends one JSON request with the merchant's credentials and answers the parsed
 * body; `body(merchant, paymentId, index)` builds a decide request whose card is the index's
 * (decideMixBody). Run it after seedStickyHabits, whose CHARGED feedback moves adyen's windows too.
 * Returns how many decisions it made (analytics counts them).
 */
export async function fillScoreWindows(post, merchant, body, cards = 3) {
  const bucket = benchWindowBucket();
  const expected = Object.fromEntries(Object.entries(benchWindowSuccesses).map(([gateway, successes]) => [gateway, successes / benchBucketSize]));
  let decisions = 0;
  for (let card = 0; card < cards; card += 1) {
    for (let slot = 0; slot < benchBucketSize; slot += 1) {
      const paymentId = `windows_${card}_${slot}`;
      await post('/decide-gateway', body(merchant, paymentId, card));
      decisions += 1;
      for (const [gateway, success] of Object.entries(bucket[slot])) {
        await post('/update-gateway-score', { merchantId: merchant, gateway, paymentId, status: success ? 'CHARGED' : 'FAILURE' });
      }
    }
  }
  for (let card = 0; card < cards; card += 1) {
    for (let attempt = 0; ; attempt += 1) {
      const probe = await post('/decide-gateway', body(merchant, `windows_probe_${card}_${attempt}`, card));
      decisions += 1;
      const scores = probe.gateway_priority_map ?? {};
      if (Object.entries(expected).every(([gateway, score]) => Math.abs((scores[gateway] ?? -1) - score) < 1e-9)) break;
      if (attempt > 10_000) throw new Error(`the filled windows never showed: ${JSON.stringify({ scores, expected })}`);
      // In process (fastify's inject), the embedded worker runs only when this loop yields.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return decisions;
}
