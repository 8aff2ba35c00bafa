import { useState } from 'preact/hooks';
import { isMissingRoute } from '../api/optional-route';
import type { CounterfactualReport, CounterfactualRequest } from '../api/server-types';
import { DataTable } from '../components/data-table';
import { FormError } from '../components/form-error';
import { KpiTiles, percent } from '../components/kpi-tiles';
import { useAction } from '../components/use-action';
import { useDashboard } from '../session/dashboard-context';

type Estimate = NonNullable<CounterfactualReport['logged']['success_rate']>;
const ranges = ['1h', '12h', '1d', '1w', '30d'] as const;
const knobs = [
  { key: 'bucket_size', label: 'Bucket size (outcomes)' },
  { key: 'hedging_percent', label: 'Hedging (%)' },
  { key: 'elimination_threshold', label: 'Elimination threshold (0 to 1)' },
  { key: 'margin', label: 'Margin (fraction of the ticket)' },
] as const;
type Knob = (typeof knobs)[number]['key'];

const withInterval = (estimate: Estimate | null, format: (value: number) => string) =>
  estimate === null ? '—' : `${format(estimate.value)} (${format(estimate.ci95_low)} – ${format(estimate.ci95_high)})`;
const bps = (value: number) => value.toFixed(2);
const estimatorNames = { doubly_robust: 'doubly robust', logged: 'observed: the candidate routes as the logs did' } as const;

/** The one estimate to read, its 95 % interval, and the sentence on whether and why the estimators disagree. */
function Recommended(props: { readonly report: CounterfactualReport }) {
  const { recommended, explanation, rescoring } = props.report;
  if (recommended === null) return null;
  return (
    <div class="recommended" data-testid="counterfactual-recommended">
      <p>
        <strong>Recommended estimate</strong> ({estimatorNames[recommended.estimator]}):{' '}
        <span data-testid="counterfactual-recommended-value">{percent(recommended.value)}</span>, 95 % interval{' '}
        <span data-testid="counterfactual-recommended-interval">
          {percent(recommended.ci95_low)} – {percent(recommended.ci95_high)}
        </span>
      </p>
      {explanation !== null && <p data-testid="counterfactual-explanation">{explanation}</p>}
      {rescoring !== null && (
        <p class="hint" data-testid="counterfactual-rescoring">
          Bucket size {rescoring.bucket_size}: {percent(rescoring.real_entry_share)} of the replayed windows' entries are real outcomes from this range (
          {percent(rescoring.full_window_share)} of windows entirely); the rest lean on the scores logged at the time.
        </p>
      )}
    </div>
  );
}

function Report(props: { readonly report: CounterfactualReport }) {
  const { report } = props;
  if (!report.supported) return <p class="state state-empty">{report.message ?? 'The logged decisions cannot support an estimate for this configuration.'}</p>;
  const rows = (['ips', 'snips', 'doubly_robust'] as const).map((estimator) => ({
    estimator,
    sr: report.success_rate?.[estimator] ?? null,
    ev: report.ev?.[estimator] ?? null,
  }));
  return (
    <div data-testid="counterfactual-report">
      <KpiTiles
        label="Counterfactual estimate"
        tiles={[
          { label: 'Decisions evaluated', value: String(report.labelled), detail: `of ${report.decisions} logged` },
          { label: 'Effective sample size', value: report.effective_sample_size.toFixed(1) },
          { label: 'Logged success rate', value: withInterval(report.logged.success_rate, percent) },
          {
            label: 'Recommended estimate',
            value:
              report.recommended === null
                ? '—'
                : `${percent(report.recommended.value)} (${percent(report.recommended.ci95_low)} – ${percent(report.recommended.ci95_high)})`,
          },
        ]}
      />
      <Recommended report={report} />
      <DataTable
        caption="Every estimator, with its 95 % interval"
        rows={rows}
        rowKey={(row) => row.estimator}
        columns={[
          { header: 'Estimator', cell: (row) => row.estimator.replace('_', ' ') },
          { header: 'Success rate', cell: (row) => withInterval(row.sr, percent) },
          { header: 'EV (per decision)', cell: (row) => withInterval(row.ev, bps) },
        ]}
      />
      {report.ev_message !== null && <p class="hint">{report.ev_message}</p>}
    </div>
  );
}

/**
 * Estimates what a candidate configuration would have achieved on the merchant's logged decisions
 * (POST /analytics/counterfactual): the same estimate the autopilot uses to choose. Empty knobs keep
 * the merchant's current values.
 */
export function CounterfactualForm() {
  const { api } = useDashboard();
  const [values, setValues] = useState<Record<Knob, string>>({ bucket_size: '', hedging_percent: '', elimination_threshold: '', margin: '' });
  const [multiObjective, setMultiObjective] = useState<'' | 'on' | 'off'>('');
  const [range, setRange] = useState<(typeof ranges)[number]>('1d');
  const [report, setReport] = useState<CounterfactualReport | 'unavailable' | undefined>(undefined);
  const action = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    const request: Record<string, unknown> = { range };
    for (const { key } of knobs) if (values[key].trim() !== '') request[key] = Number(values[key]);
    if (multiObjective !== '') request['multi_objective'] = multiObjective === 'on';
    void action.run(async () => {
      try {
        setReport(await api.autopilot.counterfactual(request as CounterfactualRequest));
      } catch (error) {
        if (!isMissingRoute(error)) throw error;
        setReport('unavailable');
      }
    });
  };

  return (
    <section class="panel" aria-labelledby="counterfactual-title">
      <h2 id="counterfactual-title">Evaluate a configuration</h2>
      <p class="hint">
        From logged decisions and their outcomes (inverse propensity scoring and doubly robust), before you apply it. Empty fields keep the current value.
      </p>
      <form onSubmit={submit}>
        <div class="row">
          {knobs.map((knob) => (
            <div class="field" key={knob.key}>
              <label for={`cf-${knob.key}`}>{knob.label}</label>
              <input
                id={`cf-${knob.key}`}
                inputMode="decimal"
                value={values[knob.key]}
                onInput={(event) => setValues({ ...values, [knob.key]: event.currentTarget.value })}
              />
            </div>
          ))}
          <div class="field">
            <label for="cf-multi-objective">Multi-objective</label>
            <select id="cf-multi-objective" value={multiObjective} onChange={(event) => setMultiObjective(event.currentTarget.value as '' | 'on' | 'off')}>
              <option value="">as now</option>
              <option value="on">on</option>
              <option value="off">off</option>
            </select>
          </div>
          <div class="field">
            <label for="cf-range">Decisions from the last</label>
            <select id="cf-range" value={range} onChange={(event) => setRange(event.currentTarget.value as (typeof ranges)[number])}>
              {ranges.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </select>
          </div>
        </div>
        <FormError error={action.error} />
        <button type="submit" class="primary" disabled={action.busy}>
          Estimate
        </button>
      </form>
      {report === 'unavailable' && <p class="state state-empty">Counterfactual evaluation is not available on this service yet.</p>}
      {report !== undefined && report !== 'unavailable' && <Report report={report} />}
    </section>
  );
}
