import { isoCurrencyCodes } from '../routing-rules/iso-codes.js';
import { issue, type RuleValidationCode, type RuleValidationIssue } from '../routing-rules/rule-validation-issue.js';
import type { BillingCycle, BillingCycleType, Reward, Tier, VolumeContract, VolumeContractConfig } from '../ports/state/volume-commitment.js';

/**
 * Reads the `data` of a `volume_contract` algorithm (the peer's `VolumeContractConfig`): shape
 * first (unknown fields, wrong types and unknown enum values are `invalid_shape`, the peer's serde
 * errors), then canonical amounts (integers or decimal strings in `major` or `minor` units become
 * integers in minor units; a count for `metric: volume`), then meaning (ranges, duplicates, exactly
 * one targeted retroactive tier, strictly increasing thresholds, a known IANA zone). Every problem
 * is reported, each with its path under `data`.
 *
 * @remarks `min_commitment` parses but is refused (`not_enabled`), as on the peer; `scope` is
 * reserved and must be absent.
 */
export type VolumeContractReadResult =
  | { readonly ok: true; readonly config: VolumeContractConfig }
  | { readonly ok: false; readonly kind: 'shape' | 'semantic'; readonly issues: readonly RuleValidationIssue[] };

const maxContracts = 50;
const maxTiers = 20;
const maxToleranceBps = 2000;
const maxRateBps = 10_000;
const maxRebateLagDays = 365;
/** 5 s .. one week, the peer's bounds on a merchant's forecast cadence. */
const intervalBounds = [5, 604_800] as const;
const schemaVersions = [1, 1] as const;

const rootKeys = [
  'schema_version',
  'routing_mode',
  'tolerance_bps',
  'tolerance',
  'metric',
  'currency',
  'expected_daily_traffic',
  'forecast_interval_secs',
  'volume_contracts',
];
const contractKeys = ['id', 'connector', 'status', 'billing_cycle', 'archetype', 'terms', 'scope'];
const tierKeys = ['kind', 'rate', 'threshold', 'targeted', 'rebate_lag_days', 'rebate_settlement'];
const cycleTypes: readonly BillingCycleType[] = ['calendar_month', 'calendar_quarter', 'calendar_year', 'test_minutes'];
const anchorRanges: Record<BillingCycleType, readonly [number, number]> = {
  calendar_month: [1, 30],
  calendar_quarter: [1, 3],
  calendar_year: [1, 12],
  test_minutes: [2, 240],
};

/** ISO 4217 minor-unit exponents that are not 2 (the peer's table). */
const zeroDecimal = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
const threeDecimal = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

export function minorUnitExponent(currency: string): number {
  if (zeroDecimal.has(currency)) return 0;
  return threeDecimal.has(currency) ? 3 : 2;
}

type Json = Readonly<Record<string, unknown>>;
type RawAmount = number | string;

class Reader {
  readonly shape: RuleValidationIssue[] = [];
  readonly meaning: RuleValidationIssue[] = [];

  fail(path: string, detail: string): undefined {
    this.shape.push(issue('invalid_shape', path, detail));
    return undefined;
  }

  problem(code: RuleValidationCode, path: string, detail: string): void {
    this.meaning.push(issue(code, path, detail));
  }

  object(value: unknown, path: string, allowed: readonly string[], what: string): Json | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return this.fail(path, `expected an object, got ${describe(value)}`);
    const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
    if (unknown.length > 0) {
      return this.fail(
        path,
        `unknown field(s) in ${what}: ${unknown.join(', ')} (expected one of: ${allowed.filter((key) => key !== 'tolerance').join(', ')})`,
      );
    }
    return value as Json;
  }

  string(value: unknown, path: string): string | undefined {
    return typeof value === 'string' ? value : this.fail(path, `expected a string, got ${describe(value)}`);
  }

  oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T | undefined {
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    return this.fail(path, `expected one of ${allowed.join(', ')}, got ${describe(value)}`);
  }

  unsigned(value: unknown, path: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max) return value;
    return this.fail(path, `expected an integer from 0 to ${max}, got ${describe(value)}`);
  }

  amount(value: unknown, path: string): RawAmount | undefined {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value) && value >= 0)) return value;
    return this.fail(path, `expected a non-negative integer or a decimal string, got ${describe(value)}`);
  }

  /** `500`, `"500"`, `"5pp"` or `"550bps"` → basis points. */
  tolerance(value: unknown, path: string): number | undefined {
    if (typeof value === 'number') return this.unsigned(value, path, 65_535);
    if (typeof value !== 'string') return this.fail(path, `expected basis points, '<n>pp' or '<n>bps', got ${describe(value)}`);
    const text = value.trim().toLowerCase();
    const match = /^(\d+)\s*(pp|bps)?$/u.exec(text);
    if (match === null) return this.fail(path, `invalid tolerance ${describe(value)}: expected basis points, '<n>pp' or '<n>bps'`);
    const bps = Number(match[1]) * (match[2] === 'pp' ? 100 : 1);
    return bps > 65_535 ? this.fail(path, `tolerance ${bps} bps out of range`) : bps;
  }
}

/** Reads, canonicalises and validates a `volume_contract` document. Never throws for any JSON input. */
export function readVolumeContract(input: unknown): VolumeContractReadResult {
  const reader = new Reader();
  const draft = readDocument(reader, input);
  if (draft === undefined || reader.shape.length > 0) return { ok: false, kind: 'shape', issues: reader.shape };
  const config = canonicalize(reader, draft);
  validate(reader, config);
  if (reader.meaning.length > 0) return { ok: false, kind: 'semantic', issues: reader.meaning };
  return { ok: true, config };
}

interface Draft {
  readonly root: Omit<VolumeContractConfig, 'expected_daily_traffic' | 'volume_contracts' | 'currency'> & {
    readonly currency: { readonly denomination: string; readonly amount_units: 'major' | 'minor' };
  };
  readonly expected: RawAmount;
  readonly contracts: readonly DraftContract[];
}

interface DraftContract {
  readonly id: string;
  readonly connector: string;
  readonly status: 'active' | 'inactive';
  readonly billing_cycle: BillingCycle;
  readonly archetype: 'lumpsum' | 'tiered' | 'min_commitment';
  readonly target?: RawAmount;
  readonly reward?: { readonly kind: 'flat'; readonly amount: RawAmount } | { readonly kind: 'percentage'; readonly bps: number };
  readonly tiers?: readonly (Omit<Tier, 'threshold'> & { readonly threshold: RawAmount })[];
  readonly hasScope: boolean;
}

function readDocument(reader: Reader, input: unknown): Draft | undefined {
  const root = reader.object(input, 'data', rootKeys, 'volume contract document');
  if (root === undefined) return undefined;
  const schemaVersion = root['schema_version'] === undefined ? schemaVersions[1] : reader.unsigned(root['schema_version'], 'data.schema_version', 65_535);
  const routingMode = reader.oneOf(root['routing_mode'], ['pace_guarded', 'volume_commitment'] as const, 'data.routing_mode');
  const toleranceInput = root['tolerance_bps'] ?? root['tolerance'];
  const tolerance = reader.tolerance(toleranceInput, 'data.tolerance_bps');
  const metric = root['metric'] === undefined ? 'gmv' : reader.oneOf(root['metric'], ['gmv', 'volume'] as const, 'data.metric');
  const currencyObject = reader.object(root['currency'], 'data.currency', ['denomination', 'amount_units'], 'currency');
  const denomination = currencyObject && reader.oneOf(currencyObject['denomination'], isoCurrencyCodes, 'data.currency.denomination');
  const units =
    currencyObject === undefined || currencyObject['amount_units'] === undefined
      ? 'minor'
      : reader.oneOf(currencyObject['amount_units'], ['major', 'minor'] as const, 'data.currency.amount_units');
  const expected = reader.amount(root['expected_daily_traffic'], 'data.expected_daily_traffic');
  const interval =
    root['forecast_interval_secs'] === undefined ? undefined : reader.unsigned(root['forecast_interval_secs'], 'data.forecast_interval_secs', 4_294_967_295);
  const list = Array.isArray(root['volume_contracts'])
    ? root['volume_contracts']
    : reader.fail('data.volume_contracts', `expected an array, got ${describe(root['volume_contracts'])}`);
  const contracts = (list ?? []).map((value, index) => readContract(reader, value, `data.volume_contracts[${index}]`));
  if (reader.shape.length > 0) return undefined;
  return {
    root: {
      schema_version: schemaVersion as number,
      routing_mode: routingMode as Draft['root']['routing_mode'],
      tolerance_bps: tolerance as number,
      metric: metric as Draft['root']['metric'],
      currency: { denomination: denomination as string, amount_units: units as 'major' | 'minor' },
      ...(interval === undefined ? {} : { forecast_interval_secs: interval }),
    },
    expected: expected as RawAmount,
    contracts: contracts as DraftContract[],
  };
}

function readContract(reader: Reader, value: unknown, path: string): DraftContract | undefined {
  const contract = reader.object(value, path, contractKeys, 'volume contract');
  if (contract === undefined) return undefined;
  const id = reader.string(contract['id'], `${path}.id`);
  const connector = reader.string(contract['connector'], `${path}.connector`);
  const status = contract['status'] === undefined ? 'active' : reader.oneOf(contract['status'], ['active', 'inactive'] as const, `${path}.status`);
  const cycle = readCycle(reader, contract['billing_cycle'], `${path}.billing_cycle`);
  const archetype = reader.oneOf(contract['archetype'], ['lumpsum', 'tiered', 'min_commitment'] as const, `${path}.archetype`);
  const base = {
    id: id as string,
    connector: connector as string,
    status: status as 'active',
    billing_cycle: cycle as BillingCycle,
    hasScope: contract['scope'] !== undefined,
  };
  if (archetype === 'lumpsum') {
    const terms = reader.object(contract['terms'], `${path}.terms`, ['target', 'reward'], 'lumpsum terms');
    const target = terms && reader.amount(terms['target'], `${path}.terms.target`);
    const reward = terms && readReward(reader, terms['reward'], `${path}.terms.reward`);
    return { ...base, archetype, target: target as RawAmount, reward: reward as NonNullable<DraftContract['reward']> };
  }
  if (archetype === 'tiered') {
    const terms = reader.object(contract['terms'], `${path}.terms`, ['tiers'], 'tiered terms');
    const list =
      terms && (Array.isArray(terms['tiers']) ? terms['tiers'] : reader.fail(`${path}.terms.tiers`, `expected an array, got ${describe(terms['tiers'])}`));
    const tiers = (list ?? []).map((tier, index) => readTier(reader, tier, `${path}.terms.tiers[${index}]`));
    return { ...base, archetype, tiers: tiers as NonNullable<DraftContract['tiers']> };
  }
  if (archetype === 'min_commitment') {
    // Parses on the peer (wire frozen) and is refused by validation; its terms are not read further.
    reader.object(contract['terms'], `${path}.terms`, ['floor', 'reward', 'overage_rate_bps'], 'min_commitment terms');
    return { ...base, archetype };
  }
  return undefined;
}

function readCycle(reader: Reader, value: unknown, path: string): BillingCycle | undefined {
  const cycle = reader.object(value, path, ['type', 'anchor', 'timezone', 'proration'], 'billing cycle');
  if (cycle === undefined) return undefined;
  const type = reader.oneOf(cycle['type'], cycleTypes, `${path}.type`);
  const anchor = reader.unsigned(cycle['anchor'], `${path}.anchor`, 255);
  const timezone = reader.string(cycle['timezone'], `${path}.timezone`);
  if (cycle['proration'] !== undefined) reader.oneOf(cycle['proration'], ['full_period'] as const, `${path}.proration`);
  return { type: type as BillingCycleType, anchor: anchor as number, timezone: timezone as string, proration: 'full_period' };
}

function readReward(reader: Reader, value: unknown, path: string): DraftContract['reward'] {
  const reward = reader.object(value, path, ['kind', 'value'], 'reward');
  if (reward === undefined) return undefined;
  const kind = reader.oneOf(reward['kind'], ['flat', 'percentage'] as const, `${path}.kind`);
  if (kind === 'flat') {
    const inner = reader.object(reward['value'], `${path}.value`, ['flat_amount'], 'flat reward');
    const amount = inner && reader.amount(inner['flat_amount'], `${path}.value.flat_amount`);
    return amount === undefined ? undefined : { kind, amount };
  }
  if (kind === 'percentage') {
    const inner = reader.object(reward['value'], `${path}.value`, ['rebate_bps'], 'percentage reward');
    const bps = inner && reader.unsigned(inner['rebate_bps'], `${path}.value.rebate_bps`, 4_294_967_295);
    return bps === undefined ? undefined : { kind, bps };
  }
  return undefined;
}

function readTier(reader: Reader, value: unknown, path: string): (Omit<Tier, 'threshold'> & { threshold: RawAmount }) | undefined {
  const tier = reader.object(value, path, tierKeys, 'tier');
  if (tier === undefined) return undefined;
  const kind = reader.oneOf(tier['kind'], ['retroactive', 'marginal'] as const, `${path}.kind`);
  const rateKey = kind === 'marginal' ? 'rate_bps' : 'rebate_bps';
  const rateObject = kind === undefined ? undefined : reader.object(tier['rate'], `${path}.rate`, [rateKey], `${kind} rate`);
  const rate = rateObject && reader.unsigned(rateObject[rateKey], `${path}.rate.${rateKey}`, 4_294_967_295);
  const threshold = reader.amount(tier['threshold'], `${path}.threshold`);
  const targeted =
    tier['targeted'] === undefined
      ? false
      : typeof tier['targeted'] === 'boolean'
        ? tier['targeted']
        : reader.fail(`${path}.targeted`, `expected a boolean, got ${describe(tier['targeted'])}`);
  const lag = tier['rebate_lag_days'] === undefined ? 0 : reader.unsigned(tier['rebate_lag_days'], `${path}.rebate_lag_days`, 65_535);
  const settlement =
    tier['rebate_settlement'] === undefined ? 'cash' : reader.oneOf(tier['rebate_settlement'], ['cash', 'credit_note'] as const, `${path}.rebate_settlement`);
  if (kind === undefined || rate === undefined || threshold === undefined || targeted === undefined || lag === undefined || settlement === undefined)
    return undefined;
  return {
    kind,
    rate: kind === 'marginal' ? { rate_bps: rate } : { rebate_bps: rate },
    threshold,
    targeted,
    rebate_lag_days: lag,
    rebate_settlement: settlement,
  };
}

/** Rewrites every amount to an integer in minor units (the stored form); bad amounts are `invalid_amount`. */
function canonicalize(reader: Reader, draft: Draft): VolumeContractConfig {
  const { root } = draft;
  const exponent = root.metric === 'gmv' ? minorUnitExponent(root.currency.denomination) : 0;
  const units = root.metric === 'gmv' ? root.currency.amount_units : 'minor';
  const minor = (amount: RawAmount, path: string): number => {
    const result = toMinor(amount, units, exponent);
    if (typeof result === 'string') {
      reader.problem('invalid_amount', path, result);
      return Number.NaN; // never stored (the read fails); NaN keeps validation from adding a second problem
    }
    return result;
  };
  const contracts = draft.contracts.map((contract, index): VolumeContract => {
    const path = `data.volume_contracts[${index}].terms`;
    const base = { id: contract.id, connector: contract.connector, status: contract.status, billing_cycle: contract.billing_cycle };
    if (contract.archetype === 'tiered') {
      const tiers = (contract.tiers ?? []).map((tier, at) => ({ ...tier, threshold: minor(tier.threshold, `${path}.tiers[${at}].threshold`) }));
      return { ...base, archetype: 'tiered', terms: { tiers } };
    }
    if (contract.archetype === 'min_commitment') {
      reader.problem('not_enabled', path, "archetype 'min_commitment' is not enabled yet");
      // A placeholder that validates cleanly, so the one problem reported is the refusal itself.
      return { ...base, archetype: 'lumpsum', terms: { target: 1, reward: { kind: 'flat', value: { flat_amount: 1 } } } };
    }
    const raw = contract.reward as NonNullable<DraftContract['reward']>;
    const reward: Reward =
      raw.kind === 'flat'
        ? { kind: 'flat', value: { flat_amount: minor(raw.amount, `${path}.reward.flat_amount`) } }
        : { kind: 'percentage', value: { rebate_bps: raw.bps } };
    return { ...base, archetype: 'lumpsum', terms: { target: minor(contract.target as RawAmount, `${path}.target`), reward } };
  });
  draft.contracts.forEach((contract, index) => {
    if (contract.hasScope)
      reader.problem('not_enabled', `data.volume_contracts[${index}].scope`, "'scope' is reserved for future payment-cluster scoping and must be absent");
  });
  return {
    ...root,
    currency: { denomination: root.currency.denomination, amount_units: 'minor' },
    expected_daily_traffic: minor(draft.expected, 'data.expected_daily_traffic'),
    volume_contracts: contracts,
  };
}

/** An amount in minor units, or why it is not one. */
function toMinor(amount: RawAmount, units: 'major' | 'minor', exponent: number): number | string {
  const scale = units === 'major' ? 10 ** exponent : 1;
  if (typeof amount === 'number') {
    const value = amount * scale;
    return Number.isSafeInteger(value) ? value : 'amount overflows the supported range';
  }
  const match = /^(\d{1,27})(?:\.(\d*))?$/u.exec(amount.trim());
  if (match === null) return `'${amount.slice(0, 40)}' is not a valid non-negative decimal amount`;
  const fraction = (match[2] ?? '').replace(/0+$/u, '');
  if (units === 'minor' && fraction.length > 0) return `fractional amount '${amount}' is not allowed with minor units`;
  if (fraction.length > exponent && units === 'major') return `'${amount}' has more than ${exponent} decimal place(s) for this currency`;
  const digits = `${match[1]}${units === 'major' ? fraction.padEnd(exponent, '0') : ''}`;
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : `'${amount}' overflows the supported amount range`;
}

function validate(reader: Reader, config: VolumeContractConfig): void {
  if (config.schema_version < schemaVersions[0] || config.schema_version > schemaVersions[1]) {
    reader.problem(
      'unsupported_schema_version',
      'data.schema_version',
      `schema_version ${config.schema_version} is not writable; supported: ${schemaVersions[0]}..=${schemaVersions[1]}`,
    );
  }
  if (config.tolerance_bps > maxToleranceBps) {
    reader.problem(
      'out_of_range',
      'data.tolerance_bps',
      `tolerance ${config.tolerance_bps} bps exceeds the maximum of ${maxToleranceBps} bps (${maxToleranceBps / 100}pp)`,
    );
  }
  positive(reader, config.expected_daily_traffic, 'data.expected_daily_traffic');
  const interval = config.forecast_interval_secs;
  if (interval !== undefined && (interval < intervalBounds[0] || interval > intervalBounds[1])) {
    reader.problem('out_of_range', 'data.forecast_interval_secs', `forecast_interval_secs must be within ${intervalBounds[0]}..=${intervalBounds[1]} seconds`);
  }
  if (config.volume_contracts.length === 0) reader.problem('empty', 'data.volume_contracts', 'at least one volume contract is required');
  if (config.volume_contracts.length > maxContracts)
    reader.problem('too_many', 'data.volume_contracts', `at most ${maxContracts} contracts are supported per document`);
  const ids = new Set<string>();
  const activeConnectors = new Set<string>();
  config.volume_contracts.forEach((contract, index) => {
    const path = `data.volume_contracts[${index}]`;
    if (!/^[A-Za-z0-9_-]{1,64}$/u.test(contract.id))
      reader.problem('invalid_value', `${path}.id`, `contract id '${contract.id.slice(0, 64)}' must match [A-Za-z0-9_-]{1,64}`);
    if (ids.has(contract.id)) reader.problem('duplicate', `${path}.id`, `duplicate contract id '${contract.id.slice(0, 64)}'`);
    ids.add(contract.id);
    if (!/^[a-z][a-z0-9_]{0,63}$/u.test(contract.connector)) {
      reader.problem('invalid_value', `${path}.connector`, `connector '${contract.connector.slice(0, 64)}' must match [a-z][a-z0-9_]{0,63}`);
    }
    if (contract.status === 'active') {
      if (activeConnectors.has(contract.connector))
        reader.problem('duplicate', `${path}.connector`, `more than one active contract for connector '${contract.connector}'`);
      activeConnectors.add(contract.connector);
    }
    validateCycle(reader, contract.billing_cycle, `${path}.billing_cycle`);
    validateTerms(reader, contract, `${path}.terms`);
  });
}

function validateCycle(reader: Reader, cycle: BillingCycle, path: string): void {
  const [low, high] = anchorRanges[cycle.type];
  if (cycle.anchor < low || cycle.anchor > high) {
    reader.problem('out_of_range', `${path}.anchor`, `anchor ${cycle.anchor} is out of range ${low}..=${high} for cycle type '${cycle.type}'`);
  }
  if (!isTimeZone(cycle.timezone)) {
    reader.problem('invalid_value', `${path}.timezone`, `'${cycle.timezone.slice(0, 64)}' is not a known IANA timezone (e.g. 'America/New_York', 'UTC')`);
  }
}

function validateTerms(reader: Reader, contract: VolumeContract, path: string): void {
  if (contract.archetype === 'lumpsum') {
    positive(reader, contract.terms.target, `${path}.target`);
    const reward = contract.terms.reward;
    if (reward.kind === 'flat') positive(reader, reward.value.flat_amount, `${path}.reward.flat_amount`);
    else rate(reader, reward.value.rebate_bps, `${path}.reward.rebate_bps`);
    return;
  }
  const tiers = contract.terms.tiers;
  if (tiers.length === 0) reader.problem('empty', `${path}.tiers`, 'a tiered contract needs at least one tier');
  if (tiers.length > maxTiers) reader.problem('too_many', `${path}.tiers`, `at most ${maxTiers} tiers are supported`);
  const targeted = tiers.filter((tier) => tier.targeted).length;
  if (targeted !== 1) reader.problem('invalid_target', `${path}.tiers`, `exactly one tier must set targeted: true (found ${targeted})`);
  let previous: number | undefined;
  tiers.forEach((tier, index) => {
    const at = `${path}.tiers[${index}]`;
    positive(reader, tier.threshold, `${at}.threshold`);
    if (previous !== undefined && tier.threshold <= previous)
      reader.problem('not_increasing', `${at}.threshold`, 'tier thresholds must be strictly increasing');
    previous = tier.threshold;
    if (tier.targeted && tier.kind === 'marginal') reader.problem('invalid_target', `${at}.targeted`, "the targeted tier must be 'retroactive'");
    rate(reader, 'rebate_bps' in tier.rate ? tier.rate.rebate_bps : tier.rate.rate_bps, `${at}.rate`);
    if (tier.rebate_lag_days > maxRebateLagDays) reader.problem('out_of_range', `${at}.rebate_lag_days`, `rebate_lag_days must be at most ${maxRebateLagDays}`);
  });
}

function positive(reader: Reader, amount: number, path: string): void {
  if (amount === 0) reader.problem('out_of_range', path, `${path} must be greater than zero`);
}

function rate(reader: Reader, bps: number, path: string): void {
  if (bps < 1 || bps > maxRateBps) reader.problem('out_of_range', path, `${path} must be within 1..=${maxRateBps} basis points`);
}

function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (missing field)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}…` : value}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}
