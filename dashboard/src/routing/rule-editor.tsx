import type { RoutingKeyView } from '../api/server-types';
import { emptyStatement, type RuleDraft, type RuleRoutingType } from './algorithm-draft';
import { removeAt, replaceAt } from './list-edit';
import { useFieldIssue } from './field-issues';
import { SplitEditor } from './split-editor';
import { StatementEditor } from './statement-editor';

export interface RuleEditorProps {
  readonly rule: RuleDraft;
  readonly index: number;
  readonly keys: Readonly<Record<string, RoutingKeyView>>;
  onChange(rule: RuleDraft): void;
  onRemove?(): void;
}

const outputTypes: readonly { readonly value: RuleRoutingType; readonly label: string }[] = [
  { value: 'priority', label: 'Priority list' },
  { value: 'volume_split', label: 'Volume split' },
  { value: 'volume_split_priority', label: 'Volume split of priority lists' },
];

/** One rule of an advanced algorithm: its name, where it routes, and when it applies (any group holding). */
export function RuleEditor(props: RuleEditorProps) {
  const { rule, index } = props;
  const id = `rule${index}`;
  const set = (patch: Partial<RuleDraft>) => props.onChange({ ...rule, ...patch });
  const nameIssue = useFieldIssue(`${id}-name`);
  const priorityIssue = useFieldIssue(`${id}-priority`);
  return (
    <section class="rule-card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Rule {index + 1}</h3>
      <div class="row">
        <div class="field">
          <label for={`${id}-name`}>Rule name</label>
          <input id={`${id}-name`} value={rule.name} onInput={(event) => set({ name: event.currentTarget.value })} {...nameIssue.inputProps} />
          {nameIssue.text}
        </div>
        <div class="field">
          <label for={`${id}-output`}>Output</label>
          <select id={`${id}-output`} value={rule.routingType} onChange={(event) => set({ routingType: event.currentTarget.value as RuleRoutingType })}>
            {outputTypes.map((type) => (
              <option key={type.value} value={type.value}>
                {type.label}
              </option>
            ))}
          </select>
        </div>
        {props.onRemove !== undefined && (
          <button type="button" class="danger" onClick={props.onRemove}>
            Remove rule
          </button>
        )}
      </div>
      {rule.routingType === 'priority' ? (
        <div class="field">
          <label for={`${id}-priority`}>Gateways in order (comma-separated)</label>
          <input id={`${id}-priority`} value={rule.priority} onInput={(event) => set({ priority: event.currentTarget.value })} {...priorityIssue.inputProps} />
          {priorityIssue.text}
        </div>
      ) : (
        <SplitEditor id={id} splits={rule.splits} lists={rule.routingType === 'volume_split_priority'} onChange={(splits) => set({ splits })} />
      )}
      <p class="hint">The rule applies when any one of these groups holds:</p>
      {rule.statements.map((statement, position) => (
        <StatementEditor
          key={position}
          id={`${id}-g${position}`}
          label={`Group ${position + 1}`}
          statement={statement}
          keys={props.keys}
          onChange={(next) => set({ statements: replaceAt(rule.statements, position, next) })}
          {...(rule.statements.length > 1 ? { onRemove: () => set({ statements: removeAt(rule.statements, position) }) } : {})}
        />
      ))}
      <button type="button" onClick={() => set({ statements: [...rule.statements, emptyStatement()] })}>
        Add group (OR)
      </button>
    </section>
  );
}
