import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import type { Action } from './use-action';

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

export interface ConfirmActionProps<T> {
  /** What the confirmation is about (a row, a choice): the dialog is open while it is set. */
  readonly pending: T | undefined;
  readonly title: string;
  readonly children: ComponentChildren;
  readonly confirmLabel: string;
  /** Runs the confirmed call: busy meanwhile, its failure kept for the page to show. */
  readonly action: Action;
  /** Clears `pending` (on cancel, and before the confirmed call starts). */
  onClose(): void;
  /** The call made for `pending` once confirmed. */
  perform(target: T): Promise<unknown>;
  /** After the call succeeded (the page reloads what it changed). */
  onDone(): void;
}

/** A {@link ConfirmDialog} of a pending change: confirming closes it and runs `perform` on what was pending through `action`, then `onDone`. */
export function ConfirmAction<T>(props: ConfirmActionProps<T>) {
  return (
    <ConfirmDialog
      open={props.pending !== undefined}
      title={props.title}
      confirmLabel={props.confirmLabel}
      onCancel={() => props.onClose()}
      onConfirm={() => {
        const target = props.pending;
        props.onClose();
        if (target !== undefined)
          void props.action.run(async () => {
            await props.perform(target);
            props.onDone();
          });
      }}
    >
      {props.children}
    </ConfirmDialog>
  );
}
