// A saved view of the trace list, as GET/POST /api/views answer it.
export interface SavedView {
  id: string;
  name: string;
  /** The list's URL query without the page: filters, sort and page size (`status=ERROR&tag=prod`). */
  query: string;
  /** The columns shown, by key (components/traces/list/columns.tsx); empty: the defaults. */
  columns: string[];
  createdAt: string;
  updatedAt: string;
}

export interface SaveViewInput {
  name: string;
  query: string;
  columns: string[];
}
