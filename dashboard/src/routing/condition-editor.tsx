import type { RoutingKeyView } from '../api/server-types';
import { comparisonLabels, comparisonsFor, enumValues, type ConditionDraft } from './algorithm-draft';
import { ValueFields } from './value-fields';

export interface ConditionEditorProps {
  readonly condition: ConditionDraft;
  readonly keys: Readonly<Record<string, RoutingKeyView>>;
  /** Unique within the page: every control gets a label bound by id. */
  readonly id: string;
  onChange(condition: ConditionDraft): void;
  onRemove?(): void;
}

/** One `key comparison value` row; the value control follows the key's type. */
export function ConditionEditor(props: ConditionEditorProps) {
  const { condition, keys, id } = props;
  const key = keys[condition.lhs];
  const comparisons = comparisonsFor(key);
  const set = (patch: Partial<ConditionDraft>) => props.onChange({ ...condition, ...patch });
  const onKey = (lhs: string) => {
    const next = keys[lhs];
    const allowed = comparisonsFor(next);
    set({
      lhs,
      comparison: allowed.includes(condition.comparison) ? condition.comparison : 'equal',
      value: next?.type === 'enum' ? (enumValues(next)[0] ?? '') : '',
    });
  };
  return (
    <div class="row condition">
      <div class="field">
        <label for={`${id}-key`}>Key</label>
        <select id={`${id}-key`} value={condition.lhs} onChange={(event) => onKey(event.currentTarget.value)}>
          {Object.keys(keys).map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for={`${id}-comparison`}>Comparison</label>
        <select
          id={`${id}-comparison`}
          value={condition.comparison}
          onChange={(event) => set({ comparison: event.currentTarget.value as ConditionDraft['comparison'] })}
        >
          {comparisons.map((comparison) => (
            <option key={comparison} value={comparison}>
              {comparisonLabels[comparison]}
            </option>
          ))}
        </select>
      </div>
      <ValueFields routingKey={key} draft={condition} id={id} set={set} />
      {props.onRemove !== undefined && (
        <button type="button" onClick={props.onRemove} aria-label={`Remove condition on ${condition.lhs}`}>
          Remove
        </button>
      )}
    </div>
  );
}
