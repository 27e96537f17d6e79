'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { listQueryString, readListState } from '@/lib/client/traces';
import { viewQueries, viewRequests, type SavedView } from '@/lib/client/views';
import type { ListParams } from '@/lib/features/traces/shared';
import { Spinner } from '@/components/ui/states';
import { DEFAULT_COLUMNS, normaliseColumns, savableColumns } from './columns';
import { Popover } from './Popover';
import type { ListNavigate } from './useListUrl';

/** The list's state a view keeps: its URL without the page. */
function viewQueryOf(params: ListParams): string {
  return listQueryString({ ...params, page: 1 }).replace(/^\?/, '');
}

function ViewsPanel({
  params,
  columns,
  navigate,
  setColumns,
  close,
}: {
  params: ListParams;
  columns: string[];
  navigate: ListNavigate;
  setColumns: (keys: readonly string[]) => void;
  close: () => void;
}) {
  const queryClient = useQueryClient();
  const views = useQuery(viewQueries.list());
  const [name, setName] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: viewQueries.all() });
  const save = useMutation({
    mutationFn: () => viewRequests.save({ name, query: viewQueryOf(params), columns: savableColumns(columns) }),
    onSuccess: () => {
      setName('');
      return refresh();
    },
  });
  const remove = useMutation({ mutationFn: (id: string) => viewRequests.remove(id), onSettled: refresh });

  const apply = (view: SavedView) => {
    navigate(readListState(new URLSearchParams(view.query)).params);
    setColumns(view.columns.length ? normaliseColumns(view.columns) : DEFAULT_COLUMNS);
    close();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) save.mutate();
  };

  return (
    <div className="flex flex-col gap-3">
      <form onSubmit={submit} className="flex flex-col gap-1">
        <label htmlFor="view-name" className="text-xs font-medium text-muted">
          Save these filters and columns as
        </label>
        <div className="flex gap-1">
          <input
            id="view-name"
            value={name}
            maxLength={100}
            placeholder="A name, e.g. Errors this week"
            onChange={(e) => setName(e.target.value)}
            className="h-8 w-full min-w-0 rounded-md border border-border-strong bg-bg px-2 text-sm text-fg placeholder:text-muted"
          />
          <button type="submit" disabled={!name.trim() || save.isPending} className="h-8 shrink-0 rounded-md bg-accent px-3 text-sm font-medium text-bg disabled:opacity-50">
            Save
          </button>
        </div>
        {save.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {save.error.message}
          </p>
        )}
        <p className="text-xs text-muted">A name you already use is replaced.</p>
      </form>

      <div>
        <h2 className="mb-1 text-xs font-medium text-muted">Saved views</h2>
        {views.isPending ? (
          <Spinner label="Loading saved views" />
        ) : views.isError ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {views.error.message}
          </p>
        ) : views.data.length === 0 ? (
          <p className="text-sm text-muted">None yet.</p>
        ) : (
          <ul aria-label="Saved views" className="flex max-h-64 flex-col gap-0.5 overflow-y-auto">
            {views.data.map((view) => (
              <li key={view.id} className="flex items-center gap-1">
                <button
                  type="button"
                  onClick={() => apply(view)}
                  title={view.query ? `?${view.query}` : 'All traces'}
                  className="min-w-0 flex-1 truncate rounded px-1.5 py-1 text-left text-sm hover:bg-surface-2"
                >
                  {view.name}
                </button>
                <button
                  type="button"
                  onClick={() => remove.mutate(view.id)}
                  disabled={remove.isPending && remove.variables === view.id}
                  aria-label={`Delete view ${view.name}`}
                  className="shrink-0 rounded px-1.5 py-1 text-sm text-muted hover:bg-surface-2 hover:text-red-700 dark:hover:text-red-300"
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
        )}
        {remove.isError && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {remove.error.message}
          </p>
        )}
      </div>
    </div>
  );
}

/** Saved views: the current filters and columns under a name, kept on the server for whoever is signed in. */
export function SavedViews(props: { params: ListParams; columns: string[]; navigate: ListNavigate; setColumns: (keys: readonly string[]) => void }) {
  return (
    <Popover label="Views" panelLabel="Saved views" align="right" width="sm:w-80" title="Save or open a view of the list">
      {(close) => <ViewsPanel {...props} close={close} />}
    </Popover>
  );
}
