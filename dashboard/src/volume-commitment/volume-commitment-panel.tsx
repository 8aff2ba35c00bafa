import type { VolumeCommitmentDashboard } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';
import { formatDateTime, useTimeZone } from '../time/time-zone';
import { CommitmentPrice } from './commitment-price';

type Pacing = VolumeCommitmentDashboard['pacing'];

/** An amount in the document's unit (minor currency units for money) as major units, or a count. */
function amountText(value: number, pacing: Pacing): string {
  if (pacing.currency === null) return Math.round(value).toLocaleString('en-US');
  return `${(value / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })} ${pacing.currency}`;
}

const rate = (value: number) => `${(value * 100).toFixed(1)} %`;

/** Where the merchant's commitments stand, what steering does now, and a forecast on demand. */
export function VolumeCommitmentPanel() {
  const { api, session } = useDashboard();
  const zone = useTimeZone();
  const { resource, reload } = useResource(() => api.volumeCommitment.dashboard(), [session.merchantId]);
  const action = useAction();
  const runForecast = () =>
    action.run(async () => {
      await api.volumeCommitment.runForecast();
      reload();
    });
  return (
    <section class="panel" aria-labelledby="vc-title">
      <h2 id="vc-title">Volume commitments</h2>
      <AsyncView resource={resource} label="the volume commitments" onRetry={reload}>
        {(answer) => {
          const pacing = answer.pacing;
          if (!pacing.contractConfigured)
            return (
              <p class="state state-empty">
                No volume contract is active. Create a <code>volume_contract</code> routing document and activate it (docs/volume-commitments.md).
              </p>
            );
          if (!pacing.featureEnabled)
            return (
              <p class="state state-empty">A contract is active but the volume-contracts feature is off: nothing is steered. Turn it on under Autopilot.</p>
            );
          return (
            <div data-testid="volume-commitment">
              <dl class="meta-list">
                <dt>Contract</dt>
                <dd>
                  <code>{pacing.ruleId}</code>
                </dd>
                <dt>Cycle (UTC)</dt>
                <dd>{pacing.cycleStart === null ? 'per commitment' : `${pacing.cycleStart.slice(0, 10)} – ${(pacing.cycleEnd ?? '').slice(0, 10)}`}</dd>
                <dt>Tolerance</dt>
                <dd>{pacing.tolerance === null ? '—' : rate(pacing.tolerance)} of approval rate</dd>
                <dt>Reward at stake</dt>
                <dd data-testid="vc-reward">{amountText(pacing.rewardAtStake, pacing)}</dd>
                <dt>Last forecast ({zone})</dt>
                <dd data-testid="vc-forecast">{pacing.computedAtEpochSecs === null ? 'not yet' : formatDateTime(pacing.computedAtEpochSecs * 1000)}</dd>
              </dl>
              {!pacing.measurementAvailable && <p class="state state-error">Delivered volume cannot be read right now; the figures below are not readings.</p>}
              <CommitmentPrice pacing={pacing} amountText={(value) => amountText(value, pacing)} />
              <button type="button" onClick={runForecast} disabled={action.busy}>
                Run forecast now
              </button>
              <FormError error={action.error} />
              <DataTable
                caption="Commitments chased, highest reward first"
                rows={pacing.psps}
                rowKey={(psp) => psp.connector}
                empty="No plan yet: run a forecast."
                columns={[
                  { header: 'PSP', cell: (psp) => <code>{psp.connector}</code> },
                  { header: 'Goal', numeric: true, cell: (psp) => amountText(psp.goal, pacing) },
                  { header: 'Achieved', numeric: true, cell: (psp) => amountText(psp.achieved, pacing) },
                  { header: 'Needed a day', numeric: true, cell: (psp) => amountText(psp.floorPerDay, pacing) },
                  { header: 'Routing gives a day', numeric: true, cell: (psp) => amountText(psp.srVolume, pacing) },
                  { header: 'Steered today', numeric: true, cell: (psp) => amountText(psp.steeredToday, pacing) },
                  {
                    header: 'Steering',
                    cell: (psp) => (psp.steering ? <span class="badge ok">{rate(psp.steerRate)} of payments</span> : <span class="badge muted">on track</span>),
                  },
                ]}
              />
              <DataTable
                caption="Commitments given up"
                rows={pacing.eliminated}
                rowKey={(psp) => psp.connector}
                empty="None given up."
                columns={[
                  { header: 'PSP', cell: (psp) => <code>{psp.connector}</code> },
                  { header: 'Still owed', numeric: true, cell: (psp) => amountText(psp.gap, pacing) },
                  { header: 'Why', cell: (psp) => psp.reason },
                ]}
              />
            </div>
          );
        }}
      </AsyncView>
    </section>
  );
}
