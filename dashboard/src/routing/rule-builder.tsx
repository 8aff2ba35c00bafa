import { useState } from 'preact/hooks';
import type { RoutingKeyView } from '../api/server-types';
import { FormError } from '../components/form-error';
import { useAction } from '../components/use-action';
import { useDashboard } from '../session/dashboard-context';
import { emptyDraft, emptyRule, toAlgorithm, type AlgorithmDraft, type AlgorithmType } from './algorithm-draft';
import { FieldIssues, useFieldIssue } from './field-issues';
import { removeAt, replaceAt } from './list-edit';
import { RuleEditor } from './rule-editor';
import { ruleIssuesOf } from './rule-issues';
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

/**
 * Builds any euclid algorithm and creates it (inactive). A refusal is read back into words under the
 * fields it is about (rule-issues.ts), with a summary above the button; any other failure is shown as sent.
 */
export function RuleBuilder(props: RuleBuilderProps) {
  const { api } = useDashboard();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [draft, setDraft] = useState<AlgorithmDraft>(emptyDraft);
  const action = useAction();
  const set = (patch: Partial<AlgorithmDraft>) => setDraft({ ...draft, ...patch });
  const algorithm = toAlgorithm(draft, props.keys);
  // The draft as it was sent: the API's paths index into it, whatever the operator typed since.
  const [sent, setSent] = useState<AlgorithmDraft>(draft);
  const issues = action.error === undefined ? undefined : ruleIssuesOf(action.error, sent);
  const byField = new Map((issues ?? []).flatMap((issue) => (issue.fieldId === undefined ? [] : [[issue.fieldId, issue.message] as const])));

  const submit = (event: Event) => {
    event.preventDefault();
    setSent(draft);
    void action.run(async () => {
      const created = await api.routing.create(name, description, algorithm);
      props.onCreated(created.rule_id);
      setName('');
      setDescription('');
      setDraft(emptyDraft());
    });
  };

  return (
    <FieldIssues.Provider value={byField}>
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
        {draft.type === 'single' && <TextField id="single-gateway" label="Gateway" value={draft.single} onInput={(single) => set({ single })} />}
        {draft.type === 'priority' && (
          <TextField id="priority-gateways" label="Gateways in order (comma-separated)" value={draft.priority} onInput={(priority) => set({ priority })} />
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
            <TextField
              id="default-selection"
              label="Default gateways when no rule applies (comma-separated, in order)"
              value={draft.defaultSelection}
              onInput={(defaultSelection) => set({ defaultSelection })}
            />
          </>
        )}
        <details>
          <summary>Request body</summary>
          <pre class="json">{JSON.stringify(algorithm, null, 2)}</pre>
        </details>
        {issues === undefined ? (
          <FormError error={action.error} />
        ) : (
          <div class="form-error" role="alert" data-testid="rule-issues">
            <p>The rule was not created: {issues.length === 1 ? 'one field needs' : `${issues.length} fields need`} fixing.</p>
            <ul>
              {issues.map((issue) => (
                <li key={issue.message}>{issue.message}</li>
              ))}
            </ul>
          </div>
        )}
        <button type="submit" class="primary" disabled={action.busy}>
          Create rule (inactive)
        </button>
      </form>
    </FieldIssues.Provider>
  );
}

/** A text input with its label and, after a refusal, its issue in words. */
function TextField(props: { readonly id: string; readonly label: string; readonly value: string; onInput(value: string): void }) {
  const issue = useFieldIssue(props.id);
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input id={props.id} value={props.value} onInput={(event) => props.onInput(event.currentTarget.value)} {...issue.inputProps} />
      {issue.text}
    </div>
  );
}
