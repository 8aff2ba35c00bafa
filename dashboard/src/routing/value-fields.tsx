import type { RoutingKeyView } from '../api/server-types';
import { enumValues, type ConditionDraft } from './algorithm-draft';
import { useFieldIssue } from './field-issues';

export interface ValueFieldsProps {
  /** The key the value is for; its type picks the control. */
  readonly routingKey: RoutingKeyView | undefined;
  readonly draft: Pick<ConditionDraft, 'metadataKey' | 'value'>;
  /** Unique within the page: the controls' ids are `${id}-meta` and `${id}-value`. */
  readonly id: string;
  set(patch: Partial<Pick<ConditionDraft, 'metadataKey' | 'value'>>): void;
}

/** A condition's value: the metadata key of a `udf` key first, then a list for an enum key or a text field. */
export function ValueFields(props: ValueFieldsProps) {
  const { routingKey: key, draft, id, set } = props;
  const issue = useFieldIssue(`${id}-value`);
  return (
    <>
      {key?.type === 'udf' && (
        <div class="field">
          <label for={`${id}-meta`}>Metadata key</label>
          <input id={`${id}-meta`} value={draft.metadataKey} onInput={(event) => set({ metadataKey: event.currentTarget.value })} />
        </div>
      )}
      <div class="field">
        <label for={`${id}-value`}>Value</label>
        {key?.type === 'enum' ? (
          <select id={`${id}-value`} value={draft.value} onChange={(event) => set({ value: event.currentTarget.value })}>
            {enumValues(key).map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={`${id}-value`}
            inputMode={key?.type === 'integer' ? 'numeric' : undefined}
            value={draft.value}
            onInput={(event) => set({ value: event.currentTarget.value })}
            {...issue.inputProps}
          />
        )}
        {issue.text}
      </div>
    </>
  );
}
