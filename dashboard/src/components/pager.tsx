export interface PagerProps {
  readonly page: number;
  /** Undefined when the total is unknown (server-paged lists that only say whether more exist). */
  readonly pages: number | undefined;
  readonly label: string;
  readonly hasNext?: boolean;
  onPage(page: number): void;
}

/** Previous / next buttons and where we are, for client- and server-paged lists alike. */
export function Pager(props: PagerProps) {
  const hasNext = props.hasNext ?? (props.pages !== undefined && props.page < props.pages);
  return (
    <nav class="pager" aria-label={`${props.label} pages`}>
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {props.page}
        {props.pages !== undefined ? ` of ${props.pages}` : ''}
      </span>
      <button type="button" disabled={!hasNext} onClick={() => props.onPage(props.page + 1)}>
        Next
      </button>
    </nav>
  );
}
