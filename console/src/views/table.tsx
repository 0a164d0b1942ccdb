import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

export interface Column<T> {
  label: string;
  value: (row: T) => ComponentChildren;
  /** The text the search matches (default: the value, when it is text). */
  text?: (row: T) => string;
}

const PAGE = 20;

/** A list with a search box and pages: a table at full width, stacked cards on a narrow screen (style.css). */
export function Table<T>({ id, caption, rows, columns, empty }: { id: string; caption: string; rows: T[]; columns: Column<T>[]; empty?: string }) {
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const q = query.trim().toLowerCase();
  const textOf = (row: T) =>
    columns
      .map((c) => (c.text ? c.text(row) : String(c.value(row) ?? '')))
      .join(' ')
      .toLowerCase();
  const shown = q ? rows.filter((r) => textOf(r).includes(q)) : rows;
  const pages = Math.max(1, Math.ceil(shown.length / PAGE));
  const current = Math.min(page, pages - 1);
  return (
    <section aria-labelledby={`${id}-heading`} class="list">
      <div class="list-head">
        <h2 id={`${id}-heading`}>
          {caption} <span class="count">({rows.length})</span>
        </h2>
        <label class="search">
          <span>Search {caption.toLowerCase()}</span>
          <input
            type="search"
            value={query}
            onInput={(e) => {
              setQuery(e.currentTarget.value);
              setPage(0);
            }}
          />
        </label>
      </div>
      {shown.length === 0 ? (
        <p class="muted">{empty ?? 'Nothing here.'}</p>
      ) : (
        <table id={id}>
          <thead>
            <tr>
              {columns.map((c) => (
                <th scope="col" key={c.label}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.slice(current * PAGE, current * PAGE + PAGE).map((row, i) => (
              <tr key={i}>
                {columns.map((c) => (
                  <td data-label={c.label} key={c.label}>
                    {c.value(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 && (
        <nav class="pager" aria-label={`${caption} pages`}>
          <button type="button" disabled={current === 0} onClick={() => setPage(current - 1)}>
            Previous
          </button>
          <span>
            Page {current + 1} of {pages}
          </span>
          <button type="button" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
            Next
          </button>
        </nav>
      )}
    </section>
  );
}
