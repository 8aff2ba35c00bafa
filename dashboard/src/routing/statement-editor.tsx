import type { RoutingKeyView } from '../api/server-types';
import { emptyCondition, emptyStatement, type StatementDraft } from './algorithm-draft';
import { ConditionEditor } from './condition-editor';
import { removeAt, replaceAt } from './list-edit';

export interface StatementEditorProps {
  readonly statement: StatementDraft;
  readonly keys: Readonly<Record<string, RoutingKeyView>>;
  readonly id: string;
  readonly label: string;
  onChange(statement: StatementDraft): void;
  onRemove?(): void;
}

/**
 * A condition group: every condition must hold (AND) and, when it has nested groups, at least one
 * of those must hold too (OR); nested groups are groups of their own, to any depth.
 */
export function StatementEditor(props: StatementEditorProps) {
  const { statement, id } = props;
  const set = (patch: Partial<StatementDraft>) => props.onChange({ ...statement, ...patch });
  return (
    <fieldset class="group-box">
      <legend>{props.label}: all of these</legend>
      {statement.conditions.map((condition, index) => (
        <ConditionEditor
          key={index}
          id={`${id}-c${index}`}
          condition={condition}
          keys={props.keys}
          onChange={(next) => set({ conditions: replaceAt(statement.conditions, index, next) })}
          {...(statement.conditions.length > 1 ? { onRemove: () => set({ conditions: removeAt(statement.conditions, index) }) } : {})}
        />
      ))}
      <div class="actions">
        <button type="button" onClick={() => set({ conditions: [...statement.conditions, emptyCondition()] })}>
          Add condition (AND)
        </button>
        <button type="button" onClick={() => set({ nested: [...statement.nested, emptyStatement()] })}>
          Add nested group (OR)
        </button>
        {props.onRemove !== undefined && (
          <button type="button" class="danger" onClick={props.onRemove}>
            Remove group
          </button>
        )}
      </div>
      {statement.nested.length > 0 && <p class="hint">…and at least one of these nested groups:</p>}
      {statement.nested.map((nested, index) => (
        <StatementEditor
          key={index}
          id={`${id}-n${index}`}
          label={`${props.label}.${index + 1}`}
          statement={nested}
          keys={props.keys}
          onChange={(next) => set({ nested: replaceAt(statement.nested, index, next) })}
          onRemove={() => set({ nested: removeAt(statement.nested, index) })}
        />
      ))}
    </fieldset>
  );
}
