import type { ComponentChildren } from 'preact';
import type { Resource } from './use-resource';

export interface AsyncViewProps<T> {
  readonly resource: Resource<T>;
  /** What is loading, for the status line ("Loading API keys…"). */
  readonly label: string;
  readonly isEmpty?: (data: T) => boolean;
  /** Shown when `isEmpty` holds: say what would fill the view. */
  readonly empty?: ComponentChildren;
  readonly onRetry?: () => void;
  readonly children: (data: T) => ComponentChildren;
}

/** The loading, error and empty states every data view shows, and the data otherwise. */
export function AsyncView<T>(props: AsyncViewProps<T>) {
  const { resource } = props;
  if (resource.state === 'loading' && resource.data === undefined) {
    return (
      <p class="state state-loading" role="status" aria-live="polite">
        Loading {props.label}…
      </p>
    );
  }
  const error =
    resource.state === 'error' ? (
      <div class="state state-error" role="alert">
        <p>
          Could not load {props.label}: {resource.error.message}
        </p>
        {props.onRetry !== undefined && (
          <button type="button" onClick={props.onRetry}>
            Retry
          </button>
        )}
      </div>
    ) : null;
  // Loaded data may itself be undefined (a setting nothing stored yet): only a failure without data stops here.
  if (resource.state === 'error' && resource.data === undefined) return error;
  const data = resource.data as T;
  if (props.isEmpty?.(data) === true) {
    return (
      <>
        {error}
        <p class="state state-empty">{props.empty ?? `No ${props.label} yet.`}</p>
      </>
    );
  }
  return (
    <>
      {error}
      {props.children(data)}
    </>
  );
}
