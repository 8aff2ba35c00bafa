import { useState } from 'preact/hooks';
import type { RoutingAlgorithmListItem } from '../api/routing-api';
import type { AbTestData, SrConfigOverride } from '../api/server-types';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useDashboard } from '../session/dashboard-context';

/** The arm id that means "success-rate routing" rather than another algorithm. */
const srRouting = 'sr_routing';

interface ArmDraft {
  algorithm: string;
  multiObjective: boolean;
  hedging: string;
  margin: string;
}

const blankArm = (multiObjective: boolean): ArmDraft => ({ algorithm: srRouting, multiObjective, hedging: '', margin: '' });

/** An arm's SR override: only what the operator set (absent fields keep the merchant's live values). */
function overrideOf(arm: ArmDraft): SrConfigOverride {
  return {
    enable_multi_objective: arm.multiObjective,
    ...(arm.hedging.trim() !== '' ? { hedging_percent: Number(arm.hedging) } : {}),
    ...(arm.margin.trim() !== '' ? { margin: Number(arm.margin) } : {}),
  };
}

function ArmFields(props: {
  readonly id: string;
  readonly title: string;
  readonly arm: ArmDraft;
  readonly rules: readonly RoutingAlgorithmListItem[];
  onChange(arm: ArmDraft): void;
}) {
  const { arm, id } = props;
  const sr = arm.algorithm === srRouting;
  return (
    <fieldset class="arm-fields">
      <legend>{props.title}</legend>
      <div class="field">
        <label for={`${id}-algorithm`}>Algorithm</label>
        <select id={`${id}-algorithm`} value={arm.algorithm} onChange={(event) => props.onChange({ ...arm, algorithm: event.currentTarget.value })}>
          <option value={srRouting}>Success-rate routing</option>
          {props.rules.map((rule) => (
            <option key={rule.id} value={rule.id}>
              {rule.name} ({rule.algorithm_data.type})
            </option>
          ))}
        </select>
      </div>
      {sr && (
        <div class="row">
          <label class="check">
            <input type="checkbox" checked={arm.multiObjective} onChange={(event) => props.onChange({ ...arm, multiObjective: event.currentTarget.checked })} />
            Cost-aware (multi-objective)
          </label>
          <div class="field">
            <label for={`${id}-hedging`}>Hedging (%)</label>
            <input
              id={`${id}-hedging`}
              inputMode="decimal"
              value={arm.hedging}
              onInput={(event) => props.onChange({ ...arm, hedging: event.currentTarget.value })}
            />
          </div>
          <div class="field">
            <label for={`${id}-margin`}>Margin (0 to 1)</label>
            <input
              id={`${id}-margin`}
              inputMode="decimal"
              value={arm.margin}
              onInput={(event) => props.onChange({ ...arm, margin: event.currentTarget.value })}
            />
          </div>
        </div>
      )}
    </fieldset>
  );
}

/**
 * A new experiment: an `ab_test` routing algorithm (POST /routing/create), created inactive. The
 * API's validation messages are shown as sent.
 */
export function ExperimentForm(props: { readonly rules: readonly RoutingAlgorithmListItem[]; onCreated(): void }) {
  const { api } = useDashboard();
  const [name, setName] = useState('');
  const [control, setControl] = useState<ArmDraft>(blankArm(false));
  const [variant, setVariant] = useState<ArmDraft>(blankArm(true));
  const [split, setSplit] = useState('20');
  const [minSample, setMinSample] = useState('1000');
  const [guardrail, setGuardrail] = useState('3');
  const action = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    const data: AbTestData = {
      control_algorithm_id: control.algorithm,
      variant_algorithm_id: variant.algorithm,
      variant_split_pct: Number(split),
      min_sample_size: Number(minSample),
      guardrail_threshold_pp: Number(guardrail),
      ...(control.algorithm === srRouting ? { control_sr_config: overrideOf(control) } : {}),
      ...(variant.algorithm === srRouting ? { variant_sr_config: overrideOf(variant) } : {}),
    };
    void action.run(async () => {
      await api.routing.create(name, '', { type: 'ab_test', data });
      setName('');
      props.onCreated();
    });
  };

  return (
    <section class="panel" aria-labelledby="new-experiment-title">
      <h2 id="new-experiment-title">New experiment</h2>
      <form onSubmit={submit}>
        <div class="row">
          <div class="field">
            <label for="experiment-name">Experiment name</label>
            <input id="experiment-name" required value={name} onInput={(event) => setName(event.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="experiment-split">Variant share (%)</label>
            <input id="experiment-split" inputMode="numeric" value={split} onInput={(event) => setSplit(event.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="experiment-min-sample">Minimum sample per arm</label>
            <input id="experiment-min-sample" inputMode="numeric" value={minSample} onInput={(event) => setMinSample(event.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="experiment-guardrail">Guardrail (percentage points)</label>
            <input id="experiment-guardrail" inputMode="decimal" value={guardrail} onInput={(event) => setGuardrail(event.currentTarget.value)} />
          </div>
        </div>
        <div class="grid-2">
          <ArmFields id="control" title="Control arm" arm={control} rules={props.rules} onChange={setControl} />
          <ArmFields id="variant" title="Variant arm" arm={variant} rules={props.rules} onChange={setVariant} />
        </div>
        <FormError error={action.error} />
        <button type="submit" class="primary" disabled={action.busy}>
          Create experiment (inactive)
        </button>
      </form>
    </section>
  );
}
