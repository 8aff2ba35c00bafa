import type { PostStepPriceReport, VolumeCommitmentDashboard } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';

type Pacing = VolumeCommitmentDashboard['pacing'];

/** 31 days: the longest range one counterfactual evaluation covers. */
const maxSpanMs = 31 * 86_400_000;

/** The cycle as the counterfactual's window; the last 30 days when the cycle is per commitment or longer than an evaluation covers. */
function windowOf(pacing: Pacing): { start_ms: number; end_ms: number } | { range: '30d' } {
  if (pacing.cycleStart === null || pacing.cycleEnd === null) return { range: '30d' };
  const start = Date.parse(pacing.cycleStart);
  const end = Date.parse(pacing.cycleEnd);
  return Number.isFinite(start) && Number.isFinite(end) && end > start && end - start <= maxSpanMs ? { start_ms: start, end_ms: end } : { range: '30d' };
}

const points = (fraction: number) => `${(fraction * 100).toFixed(2)} pp`;

/**
 * The price of the commitments beside what they earn: the rebate of the commitments already met
 * this cycle, and the approval rate steering gave up for them, with its 95 % interval (the
 * counterfactual's `without_volume_commitment` candidate, docs/volume-commitments.md).
 */
export function CommitmentPrice(props: { readonly pacing: Pacing; readonly amountText: (value: number) => string }) {
  const { api, session } = useDashboard();
  const { pacing } = props;
  const window = windowOf(pacing);
  const { resource, reload } = useResource((signal) => api.volumeCommitment.priceOfSteering(window, signal), [session.merchantId, JSON.stringify(window)]);
  const earned = pacing.psps.filter((psp) => psp.achieved >= psp.goal).reduce((sum, psp) => sum + psp.reward, 0);
  return (
    <section aria-labelledby="vc-price-title" data-testid="vc-price">
      <h3 id="vc-price-title">What the commitments earn and cost</h3>
      <dl class="meta-list">
        <dt>Rebate earned this cycle</dt>
        <dd data-testid="vc-earned">
          {props.amountText(earned)} of {props.amountText(pacing.rewardAtStake)} at stake
        </dd>
        <dt>Approval rate given up to steering</dt>
        <dd data-testid="vc-given-up">
          <AsyncView resource={resource} label="the price of steering" onRetry={reload}>
            {(report: PostStepPriceReport) => <GivenUp report={report} />}
          </AsyncView>
        </dd>
      </dl>
    </section>
  );
}

function GivenUp({ report }: { readonly report: PostStepPriceReport }) {
  if (!report.supported || report.rate_given_up === null) return <span>No estimate: {report.message ?? report.reason}</span>;
  if (report.moved === 0) return <span>Nothing steered in this window.</span>;
  const { value, ci95_low: low, ci95_high: high } = report.rate_given_up;
  return (
    <span>
      {points(value)}{' '}
      <span class="muted">
        (95 % interval {points(low)} to {points(high)})
      </span>{' '}
      over {report.labelled.toLocaleString('en-US')} payments with an outcome, {report.moved_labelled.toLocaleString('en-US')} of them steered; the router
      expected {points(report.score_gap_at_decision ?? 0)}.
    </span>
  );
}
