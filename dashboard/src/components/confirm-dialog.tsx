import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

export interface ConfirmDialogProps {
  readonly open: boolean;
  readonly title: string;
  readonly children: ComponentChildren;
  readonly confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * A modal confirmation on the native <dialog>: it traps focus, closes on Escape (a cancel) and
 * hands focus back to whatever opened it.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // One id per dialog: a page with several (a list's delete and activate confirmations) names each by its own title.
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} class="confirm" aria-labelledby={titleId} onCancel={() => props.onCancel()}>
      <h2 id={titleId}>{props.title}</h2>
      <div>{props.children}</div>
      <div class="actions">
        <button type="button" onClick={() => props.onCancel()}>
          Cancel
        </button>
        <button type="button" class="danger" onClick={() => props.onConfirm()}>
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
