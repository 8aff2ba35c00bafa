import { useContext } from 'preact/hooks';
import type { SplitDraft } from './algorithm-draft';
import { FieldIssues, fieldIssueOf } from './field-issues';
import { removeAt, replaceAt } from './list-edit';

export interface SplitEditorProps {
  readonly splits: readonly SplitDraft[];
  readonly id: string;
  /** volume_split_priority: each share goes to a priority list rather than one gateway. */
  readonly lists: boolean;
  onChange(splits: SplitDraft[]): void;
}

/** Traffic shares (percent) and where each goes; the running total is shown, the API enforces 100. */
export function SplitEditor(props: SplitEditorProps) {
  const total = props.splits.reduce((sum, split) => sum + (Number(split.split) || 0), 0);
  const issues = useContext(FieldIssues);
  return (
    <div>
      {props.splits.map((split, index) => {
        const share = fieldIssueOf(issues, `${props.id}-s${index}-pct`);
        const gateway = fieldIssueOf(issues, `${props.id}-s${index}-gw`);
        return (
          <div class="row" key={index}>
            <div class="field">
              <label for={`${props.id}-s${index}-pct`}>Share {index + 1} (%)</label>
              <input
                id={`${props.id}-s${index}-pct`}
                inputMode="numeric"
                size={5}
                value={split.split}
                onInput={(event) => props.onChange(replaceAt(props.splits, index, { ...split, split: event.currentTarget.value }))}
                {...share.inputProps}
              />
              {share.text}
            </div>
            <div class="field">
              <label for={`${props.id}-s${index}-gw`}>{props.lists ? 'Gateways in order (comma-separated)' : 'Gateway'}</label>
              <input
                id={`${props.id}-s${index}-gw`}
                value={split.gateways}
                onInput={(event) => props.onChange(replaceAt(props.splits, index, { ...split, gateways: event.currentTarget.value }))}
                {...gateway.inputProps}
              />
              {gateway.text}
            </div>
            {props.splits.length > 1 && (
              <button type="button" onClick={() => props.onChange(removeAt(props.splits, index))} aria-label={`Remove share ${index + 1}`}>
                Remove
              </button>
            )}
          </div>
        );
      })}
      <div class="actions">
        <button type="button" onClick={() => props.onChange([...props.splits, { split: '0', gateways: '' }])}>
          Add share
        </button>
        <span class={total === 100 ? 'hint' : 'inline-error'} aria-live="polite">
          Total {total}%{total === 100 ? '' : ' (must be 100)'}
        </span>
      </div>
    </div>
  );
}
