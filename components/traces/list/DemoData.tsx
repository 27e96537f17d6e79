'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { demoQueries, loadDemo, removeDemo } from '@/lib/client/demo';
import { traceQueries } from '@/lib/client/traces';
import { plural } from '@/lib/core/format';
import { useFirstRun } from '@/components/app/FirstRun';

/** After a load or a removal: every list, session and figure may have changed. */
function useRefreshAll() {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: traceQueries.all() }), client.invalidateQueries({ queryKey: demoQueries.all() })]);
}

/** "Load demo data" for whoever may (admins; anyone in open mode), with what happened. */
export function LoadDemoButton() {
  const { demo } = useFirstRun();
  const refresh = useRefreshAll();
  const load = useMutation({ mutationFn: () => loadDemo(demo!), onSuccess: refresh });
  if (!demo) return null;
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        onClick={() => load.mutate()}
        disabled={load.isPending}
        className="rounded-md bg-accent px-3 py-1.5 text-sm font-medium text-white hover:opacity-90 disabled:opacity-60 dark:text-bg"
      >
        {load.isPending ? 'Loading demo data…' : 'Load demo data'}
      </button>
      <span className="text-sm text-muted" role="status">
        {load.isError ? `Could not load it: ${load.error.message}` : load.isSuccess ? `Loaded ${plural(load.data.traces, 'trace')}.` : 'About 60 agent runs of the last day, tagged demo; removable in one click.'}
      </span>
    </div>
  );
}

/** Above the list while demo traces are stored: says so, and removes them for whoever may. */
export function DemoDataBanner() {
  const { demo } = useFirstRun();
  const status = useQuery({ ...demoQueries.status(), enabled: demo !== null });
  const refresh = useRefreshAll();
  const remove = useMutation({ mutationFn: () => removeDemo(demo!), onSuccess: refresh });
  const count = status.data?.traces ?? 0;
  if (!demo || count === 0) return null;
  return (
    <div role="status" data-testid="demo-banner" className="flex flex-wrap items-center gap-3 rounded-md border border-border bg-surface px-3 py-2 text-sm">
      <span>
        Showing demo data: {plural(count, 'trace')} tagged <code className="font-mono">demo</code>.
      </span>
      <button
        type="button"
        onClick={() => remove.mutate()}
        disabled={remove.isPending}
        className="rounded border border-border-strong px-2 py-0.5 hover:bg-surface-2 disabled:opacity-60"
      >
        {remove.isPending ? 'Removing…' : 'Remove demo data'}
      </button>
      {remove.isError && <span className="text-red-800 dark:text-red-200">Could not remove it: {remove.error.message}</span>}
    </div>
  );
}
