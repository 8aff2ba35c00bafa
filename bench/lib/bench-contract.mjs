// The volume commitment the decide benches steer by (decide-bench's row 2d, profile-decide's VOLUME=1).

/**
 * The volume commitment of row 2c: adyen owed USD 3B this calendar year against USD 10B a day expected
 * (behind on a fresh merchant, winnable until the year's last hours), 5 pp of approval rate allowed:
 * every SR decision that does not pick adyen rolls against adyen's published rate.
 */
export const benchContract = {
  routing_mode: 'pace_guarded',
  tolerance_bps: 500,
  currency: { denomination: 'USD' },
  expected_daily_traffic: 1_000_000_000_000,
  volume_contracts: [
    {
      id: 'bench_adyen',
      connector: 'adyen',
      billing_cycle: { type: 'calendar_year', anchor: 1, timezone: 'UTC' },
      archetype: 'lumpsum',
      terms: { target: 300_000_000_000, reward: { kind: 'flat', value: { flat_amount: 10_000_000 } } },
    },
  ],
};

/**
 * Turns on `volume-contracts` for `merchant`, creates and activates {@link benchContract}, and runs a
 * forecast, which must publish a plan steering toward adyen. `post(path, body)` sends one request as
 * the merchant and answers its JSON.
 */
export async function activateBenchContract(merchant, post) {
  await post(`/merchant-account/${merchant}/features/volume-contracts`, { enabled: true });
  const created = await post('/routing/create', { name: 'bench-contract', created_by: merchant, algorithm: { type: 'volume_contract', data: benchContract } });
  await post('/routing/activate', { created_by: merchant, routing_algorithm_id: created.rule_id });
  const run = await post(`/volume-commitment/run-forecast?merchant_id=${merchant}`, {});
  if (run.merchants[0]?.pspsSteering !== 1) throw new Error(`the forecast published no steering: ${JSON.stringify(run)}`);
}
