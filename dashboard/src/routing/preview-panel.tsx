import { useState } from 'preact/hooks';
import type { EvaluateResult, RoutingAlgorithmListItem } from '../api/routing-api';
import type { RoutingKeyView } from '../api/server-types';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useDashboard } from '../session/dashboard-context';
import { emptyCondition, enumValues, valueOf, type ConditionDraft } from './algorithm-draft';
import { removeAt, replaceAt } from './list-edit';
import { ValueFields } from './value-fields';

export interface PreviewPanelProps {
  readonly rule: RoutingAlgorithmListItem;
  readonly keys: Readonly<Record<string, RoutingKeyView>>;
}

/** Evaluates one algorithm (active or not) for payment parameters the operator enters: POST /routing/evaluate with routing_algorithm_id. */
export function PreviewPanel(props: PreviewPanelProps) {
  const { api } = useDashboard();
  const [parameters, setParameters] = useState<readonly ConditionDraft[]>([{ ...emptyCondition('amount'), value: '100' }]);
  const [result, setResult] = useState<EvaluateResult | undefined>(undefined);
  const action = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      setResult(undefined);
      const body = Object.fromEntries(parameters.map((parameter) => [parameter.lhs, valueOf(parameter, props.keys[parameter.lhs])]));
      setResult(await api.routing.evaluate(body, props.rule.id));
    });
  };

  return (
    <section class="panel" aria-labelledby="preview-title" data-testid="preview-panel">
      <h2 id="preview-title">Preview “{props.rule.name}”</h2>
      <form onSubmit={submit}>
        {parameters.map((parameter, index) => {
          const key = props.keys[parameter.lhs];
          const id = `param${index}`;
          const set = (patch: Partial<ConditionDraft>) => setParameters(replaceAt(parameters, index, { ...parameter, ...patch }));
          return (
            <div class="row" key={index}>
              <div class="field">
                <label for={`${id}-key`}>Parameter</label>
                <select
                  id={`${id}-key`}
                  value={parameter.lhs}
                  onChange={(event) => set({ lhs: event.currentTarget.value, value: enumValues(props.keys[event.currentTarget.value])[0] ?? '' })}
                >
                  {Object.keys(props.keys).map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </div>
              <ValueFields routingKey={key} draft={parameter} id={id} set={set} />
              {parameters.length > 1 && (
                <button type="button" onClick={() => setParameters(removeAt(parameters, index))} aria-label={`Remove parameter ${parameter.lhs}`}>
                  Remove
                </button>
              )}
            </div>
          );
        })}
        <div class="actions">
          <button type="button" onClick={() => setParameters([...parameters, { ...emptyCondition('payment_method'), comparison: 'equal', value: 'card' }])}>
            Add parameter
          </button>
          <button type="submit" class="primary" disabled={action.busy}>
            Evaluate
          </button>
        </div>
      </form>
      <FormError error={action.error} />
      {result !== undefined && (
        <div role="status" class="preview-result">
          <p>
            Status <strong>{result.status}</strong>; gateways in order:{' '}
            <strong data-testid="preview-output">{result.evaluated_output.map((connector) => connector.gateway_name).join(', ') || 'none'}</strong>
          </p>
          <details>
            <summary>Full answer</summary>
            <pre class="json">{JSON.stringify(result, null, 2)}</pre>
          </details>
        </div>
      )}
    </section>
  );
}
