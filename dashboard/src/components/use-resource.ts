import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export type Resource<T> =
  | { readonly state: 'loading'; readonly data: T | undefined }
  | { readonly state: 'error'; readonly error: Error; readonly data: T | undefined }
  | { readonly state: 'ready'; readonly data: T };

export interface ResourceHandle<T> {
  readonly resource: Resource<T>;
  reload(): void;
}

/**
 * Loads `load()` when `keys` change, and again every `pollMs` while set (live charts). A newer
 * load aborts the older one, so a slow answer never overwrites a fresher one. While refreshing,
 * the last data stays on screen.
 */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, keys: readonly unknown[], pollMs?: number): ResourceHandle<T> {
  const [resource, setResource] = useState<Resource<T>>({ state: 'loading', data: undefined });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const dataRef = useRef<T | undefined>(undefined);

  useEffect(() => {
    const controller = new AbortController();
    if (dataRef.current === undefined) setResource({ state: 'loading', data: undefined });
    loadRef.current(controller.signal).then(
      (data) => {
        if (controller.signal.aborted) return;
        dataRef.current = data;
        setResource({ state: 'ready', data });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setResource({ state: 'error', error: error instanceof Error ? error : new Error(String(error)), data: dataRef.current });
      },
    );
    return () => controller.abort();
  }, [...keys, tick]);

  useEffect(() => {
    if (pollMs === undefined) return undefined;
    const timer = setInterval(() => setTick((value) => value + 1), pollMs);
    return () => clearInterval(timer);
  }, [pollMs]);

  // A changed key set starts from "loading" again rather than showing another query's data.
  const keyText = JSON.stringify(keys);
  const lastKeys = useRef(keyText);
  if (lastKeys.current !== keyText) {
    lastKeys.current = keyText;
    dataRef.current = undefined;
  }

  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { resource, reload };
}
