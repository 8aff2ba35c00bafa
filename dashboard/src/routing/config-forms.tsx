import { useEffect, useState } from 'preact/hooks';
import type { EliminationConfig, SuccessRateConfig } from '../api/server-types';
import { AsyncView } from '../components/async-view';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useResource } from '../components/use-resource';
import { useDashboard } from '../session/dashboard-context';

/** A number input's value: empty means "unset" (the service default). */
const optionalNumber = (text: string): number | null => (text.trim() === '' ? null : Number(text));
const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

function NumberField(props: { readonly id: string; readonly label: string; readonly value: string; readonly hint?: string; onInput(value: string): void }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        inputMode="decimal"
        value={props.value}
        aria-describedby={props.hint !== undefined ? `${props.id}-hint` : undefined}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      {props.hint !== undefined && (
        <span class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </span>
      )}
    </div>
  );
}

/** The margin the decide path applies: the stored one, else 1 (src/decision/multi-objective/apply-multi-objective.ts). */
const marginInEffect = (stored: number | null | undefined) => (stored === null || stored === undefined ? '1, the default' : String(stored));

/** Success-rate (SR v3) parameters: POST /rule/create or /rule/update with type successRate. */
export function SuccessRateForm() {
  const { api, session } = useDashboard();
  const { resource, reload } = useResource(() => api.routing.getConfig('successRate'), [session.merchantId]);
  const [bucket, setBucket] = useState('');
  const [hedging, setHedging] = useState('');
  const [latency, setLatency] = useState('');
  const [margin, setMargin] = useState('');
  const action = useAction();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (resource.state !== 'ready') return;
    setBucket(text(resource.data?.defaultBucketSize));
    setHedging(text(resource.data?.defaultHedgingPercent));
    setLatency(text(resource.data?.defaultLatencyThreshold));
    setMargin(text(resource.data?.margin));
  }, [resource]);
  const submit = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const stored = resource.state === 'ready' ? resource.data : undefined;
    const data: SuccessRateConfig = {
      ...stored,
      defaultBucketSize: optionalNumber(bucket),
      defaultHedgingPercent: optionalNumber(hedging),
      defaultLatencyThreshold: optionalNumber(latency),
      margin: optionalNumber(margin),
    };
    void action.run(async () => {
      await api.routing.putConfig('successRate', data, stored === undefined ? 'create' : 'update');
      setSaved(true);
      reload();
    });
  };
  return (
    <section class="panel" aria-labelledby="sr-title">
      <h2 id="sr-title">Success-rate routing</h2>
      <AsyncView resource={resource} label="the success-rate configuration" onRetry={reload}>
        {(stored) => (
          <form onSubmit={submit}>
            <p class="hint">
              {stored === undefined
                ? 'Nothing stored: decisions use the service defaults (bucket 125, hedging 5 %, margin 1).'
                : 'Stored configuration; empty fields use the defaults.'}
            </p>
            <div class="row">
              <NumberField id="sr-bucket" label="Bucket size (outcomes)" value={bucket} onInput={setBucket} />
              <NumberField id="sr-hedging" label="Hedging (%)" value={hedging} onInput={setHedging} />
              <NumberField id="sr-latency" label="Latency threshold (s)" value={latency} onInput={setLatency} />
              <NumberField
                id="sr-margin"
                label="Margin (fraction of ticket)"
                value={margin}
                onInput={setMargin}
                hint={`What an approved payment earns, as a fraction of its amount: cost-aware routing trades a gateway's lower fee against the approvals it loses at this value (in effect: ${marginInEffect(stored?.margin)}).`}
              />
            </div>
            <FormError error={action.error} />
            <button type="submit" class="primary" disabled={action.busy}>
              Save success-rate configuration
            </button>
            {saved && <span role="status"> Saved.</span>}
          </form>
        )}
      </AsyncView>
    </section>
  );
}

/** Elimination threshold: POST /rule/create (which overwrites, as in decision-engine) with type elimination. */
export function EliminationForm() {
  const { api, session } = useDashboard();
  const { resource, reload } = useResource(() => api.routing.getConfig('elimination'), [session.merchantId]);
  const [threshold, setThreshold] = useState('');
  const action = useAction();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (resource.state === 'ready') setThreshold(text(resource.data?.threshold));
  }, [resource]);
  const submit = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const data: EliminationConfig = { threshold: Number(threshold) };
    void action.run(async () => {
      await api.routing.putConfig('elimination', data, 'create');
      setSaved(true);
      reload();
    });
  };
  return (
    <section class="panel" aria-labelledby="elimination-title">
      <h2 id="elimination-title">Elimination</h2>
      <AsyncView resource={resource} label="the elimination configuration" onRetry={reload}>
        {(stored) => (
          <form onSubmit={submit}>
            <p class="hint">
              {stored === undefined ? 'Nothing stored: the threshold is 0.05.' : 'A gateway whose score is below the threshold has its score divided by 5.'}
            </p>
            <NumberField id="elimination-threshold" label="Threshold (0 to 1)" value={threshold} onInput={setThreshold} />
            <FormError error={action.error} />
            <button type="submit" class="primary" disabled={action.busy}>
              Save elimination threshold
            </button>
            {saved && <span role="status"> Saved.</span>}
          </form>
        )}
      </AsyncView>
    </section>
  );
}

/** Network (debit) routing on or off: POST /merchant-account/{id}/debit-routing. */
export function DebitRoutingToggle() {
  const { api, session } = useDashboard();
  const { resource, reload } = useResource(() => api.routing.debitRouting(), [session.merchantId]);
  const action = useAction();
  // The switch shows the requested state while the write is in flight, the stored one otherwise.
  const [requested, setRequested] = useState<boolean | undefined>(undefined);
  return (
    <section class="panel" aria-labelledby="debit-title">
      <h2 id="debit-title">Debit routing</h2>
      <AsyncView resource={resource} label="the debit routing setting" onRetry={reload}>
        {(state) => (
          <>
            <label class="check">
              <input
                type="checkbox"
                checked={requested ?? state.debit_routing_enabled}
                disabled={action.busy}
                onChange={(event) => {
                  const enabled = event.currentTarget.checked;
                  setRequested(enabled);
                  void action.run(async () => {
                    try {
                      await api.routing.setDebitRouting(enabled);
                    } finally {
                      setRequested(undefined);
                      reload();
                    }
                  });
                }}
              />
              Network (debit) routing enabled
            </label>
            <FormError error={action.error} />
          </>
        )}
      </AsyncView>
    </section>
  );
}
