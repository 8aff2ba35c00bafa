// Sticky routing's bench setup, one copy for decide-bench (row 2c), bench-compare (decide_sticky),
// decide-inject (FEATURES=sticky) and profile-rows (ROW=sticky): bodies that name one of `customers`
// customers, and every customer's habit on adyen seeded through the API.

/** A `shape(body, index)` for the decide loads: the body naming customer `cust_<index mod customers>`. */
export const namingCustomer = (customers) => (body, index) => ({ ...body, paymentInfo: { ...body.paymentInfo, customerId: `cust_${index % customers}` } });

/**
 * Turns sticky routing on for `merchant` and seeds every customer's habit on adyen (a decision, then
 * CHARGED feedback for it), then decides for the last customer until it pins: the worker applies
 * feedback in order, so then every habit is in. `post(path, payload)` sends one JSON request with
 * the merchant's credentials and answers the parsed body; `body(merchant, paymentId, index)` builds a
 * decide request. Returns how many decisions the seeding made (analytics counts them too).
 */
export async function seedStickyHabits(post, merchant, customers, body) {
  const withCustomer = namingCustomer(customers);
  await post(`/merchant-account/${merchant}/features/sticky-routing`, { enabled: true });
  for (let i = 0; i < customers; i++) {
    await post('/decide-gateway', withCustomer(body(merchant, `seed_${i}`, i), i));
    await post('/update-gateway-score', { merchantId: merchant, gateway: 'adyen', paymentId: `seed_${i}`, status: 'CHARGED' });
  }
  for (let attempt = 0; ; attempt++) {
    const probe = await post('/decide-gateway', withCustomer(body(merchant, `seed_probe_${attempt}`, customers - 1), customers - 1));
    if (probe.routing_approach === 'STICKY_ROUTING') return customers + attempt + 1;
    if (attempt > 10_000) throw new Error(`the seeded habits never pinned: ${JSON.stringify(probe)}`);
    // In process (fastify's inject), the embedded worker runs only when this loop yields.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
