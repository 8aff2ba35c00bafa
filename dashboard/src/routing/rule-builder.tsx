import { useState } from 'preact/hooks';
import type { RoutingKeyView } from '../api/server-types';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useDashboard } from '../session/dashboard-context';
import { emptyDraft, emptyRule, toAlgorithm, type AlgorithmDraft, type AlgorithmType } from './algorithm-draft';
import { removeAt, replaceAt } from './list-edit';
import { RuleEditor } from './rule-editor';
import { SplitEditor } from './split-editor';

const types: readonly { readonly value: AlgorithmType; readonly label: string }[] = [
  { value: 'single', label: 'Single gateway' },
  { value: 'priority', label: 'Priority list' },
  { value: 'volume_split', label: 'Volume split' },
  { value: 'advanced', label: 'Advanced (conditions)' },
];

export interface RuleBuilderProps {
  readonly keys: Readonly<Record<string, RoutingKeyView>>;
  /** Called with the new algorithm's id once the API has accepted it (inactive). */
  onCreated(ruleId: string): void;
}

/** Builds any euclid algorithm and creates it (inactive); the API's validation messages are shown as sent. */
export function RuleBuilder(props: RuleBuilderProps) {
  const { api } = useDashboard();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [draft, setDraft] = useState<AlgorithmDraft>(emptyDraft);
  const action = useAction();
  const set = (patch: Partial<AlgorithmDraft>) => setDraft({ ...draft, ...patch });
  const algorithm = toAlgorithm(draft, props.keys);

  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const created = await api.routing.create(name, description, algorithm);
      props.onCreated(created.rule_id);
      setName('');
      setDescription('');
      setDraft(emptyDraft());
    });
  };

  return (
    <form onSubmit={submit} aria-labelledby="builder-title">
      <h2 id="builder-title">Rule builder</h2>
      <div class="row">
        <div class="field">
          <label for="rule-name">Name</label>
          <input id="rule-name" required maxLength={255} value={name} onInput={(event) => setName(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="rule-description">Description</label>
          <input id="rule-description" value={description} onInput={(event) => setDescription(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="rule-type">Algorithm</label>
          <select id="rule-type" value={draft.type} onChange={(event) => set({ type: event.currentTarget.value as AlgorithmType })}>
            {types.map((type) => (
              <option key={type.value} value={type.value}>
                {type.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {draft.type === 'single' && (
        <div class="field">
          <label for="single-gateway">Gateway</label>
          <input id="single-gateway" value={draft.single} onInput={(event) => set({ single: event.currentTarget.value })} />
        </div>
      )}
      {draft.type === 'priority' && (
        <div class="field">
          <label for="priority-gateways">Gateways in order (comma-separated)</label>
          <input id="priority-gateways" value={draft.priority} onInput={(event) => set({ priority: event.currentTarget.value })} />
        </div>
      )}
      {draft.type === 'volume_split' && <SplitEditor id="split" splits={draft.splits} lists={false} onChange={(splits) => set({ splits })} />}
      {draft.type === 'advanced' && (
        <>
          {draft.rules.map((rule, index) => (
            <RuleEditor
              key={index}
              index={index}
              rule={rule}
              keys={props.keys}
              onChange={(next) => set({ rules: replaceAt(draft.rules, index, next) })}
              {...(draft.rules.length > 1 ? { onRemove: () => set({ rules: removeAt(draft.rules, index) }) } : {})}
            />
          ))}
          <button type="button" onClick={() => set({ rules: [...draft.rules, emptyRule(draft.rules.length)] })}>
            Add rule
          </button>
          <div class="field">
            <label for="default-selection">Default gateways when no rule applies (comma-separated, in order)</label>
            <input id="default-selection" value={draft.defaultSelection} onInput={(event) => set({ defaultSelection: event.currentTarget.value })} />
          </div>
        </>
      )}
      <details>
        <summary>Request body</summary>
        <pre class="json">{JSON.stringify(algorithm, null, 2)}</pre>
      </details>
      <FormError error={action.error} />
      <button type="submit" class="primary" disabled={action.busy}>
        Create rule (inactive)
      </button>
    </form>
  );
}
