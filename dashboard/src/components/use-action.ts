import { useState } from 'preact/hooks';

export interface Action {
  readonly busy: boolean;
  /** The API's own message for the last failure (validation text included), cleared on the next run. */
  readonly error: string | undefined;
  run(work: () => Promise<void>): Promise<void>;
}

/** A form submission or button action: one at a time, its failure kept for display. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  return {
    busy,
    error,
    async run(work) {
      setBusy(true);
      setError(undefined);
      try {
        await work();
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : String(failure));
      } finally {
        setBusy(false);
      }
    },
  };
}
