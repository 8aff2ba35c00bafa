import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Pager } from './pager';

export interface Column<T> {
  readonly header: string;
  readonly cell: (row: T) => ComponentChildren;
  /** Right-aligned, tabular figures. */
  readonly numeric?: boolean;
}

export interface DataTableProps<T> {
  readonly caption: string;
  readonly columns: readonly Column<T>[];
  readonly rows: readonly T[];
  readonly rowKey: (row: T, index: number) => string;
  /** Rows per page; the table pages itself when it has more. */
  readonly pageSize?: number;
  readonly empty?: string;
}

/** A captioned table that scrolls sideways on a phone and pages long lists. */
export function DataTable<T>(props: DataTableProps<T>) {
  const pageSize = props.pageSize ?? 10;
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(props.rows.length / pageSize));
  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);
  const shown = props.rows.slice((page - 1) * pageSize, page * pageSize);
  return (
    <div class="table-block">
      <div class="table-scroll" tabIndex={0} role="region" aria-label={props.caption}>
        <table>
          <caption>{props.caption}</caption>
          <thead>
            <tr>
              {props.columns.map((column) => (
                <th scope="col" class={column.numeric === true ? 'numeric' : undefined} key={column.header}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 ? (
              <tr>
                <td colSpan={props.columns.length} class="state-empty">
                  {props.empty ?? 'Nothing to show.'}
                </td>
              </tr>
            ) : (
              shown.map((row, index) => (
                <tr key={props.rowKey(row, (page - 1) * pageSize + index)}>
                  {props.columns.map((column) => (
                    <td class={column.numeric === true ? 'numeric' : undefined} key={column.header}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {pages > 1 && <Pager page={page} pages={pages} label={props.caption} onPage={setPage} />}
    </div>
  );
}
