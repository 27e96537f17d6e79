'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { plural } from '@/lib/core/format';
import { deleteRequests } from '@/lib/client/delete';
import { traceQueries } from '@/lib/client/traces';
import type { TraceOutline } from '@/lib/features/traces/shared';
import { ConfirmDialog } from '@/components/settings/ConfirmDialog';
import { useCanDelete } from '@/components/traces/delete/CanDelete';
import { deleteButton } from '@/components/traces/delete/styles';

/** "Delete trace" on the detail page (admins only): asks, naming the trace and what it holds, then returns to the list. */
export function DeleteTraceButton({ trace }: { trace: Pick<TraceOutline, 'id' | 'name' | 'spans' | 'decisionPoints' | 'events'> }) {
  const allowed = useCanDelete();
  const [open, setOpen] = useState(false);
  // The <dialog> joins the page on first use only: server HTML never holds it, so the
  // button may sit inside a <p> (where the HTML parser would close the paragraph at it).
  const [used, setUsed] = useState(false);
  const router = useRouter();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteRequests.trace(trace.id),
    onSuccess: async () => {
      // Stop this page's polling before the trace is gone, then show the list as it is now.
      await queryClient.cancelQueries({ queryKey: traceQueries.detail(trace.id).queryKey });
      router.replace('/traces');
      queryClient.removeQueries({ queryKey: traceQueries.detail(trace.id).queryKey });
      await queryClient.invalidateQueries({ queryKey: traceQueries.lists() });
      router.refresh();
    },
  });
  if (!allowed) return null;

  return (
    <>
      <button
        type="button"
        onClick={() => {
          remove.reset();
          setUsed(true);
          setOpen(true);
        }}
        className={deleteButton}
      >
        Delete trace
      </button>
      {used && (
        <ConfirmDialog
          open={open}
          title={`Delete trace “${trace.name}”?`}
          confirmLabel="Delete trace"
          pending={remove.isPending || remove.isSuccess}
          error={remove.error?.message ?? null}
          onConfirm={() => remove.mutate()}
          onCancel={() => setOpen(false)}
        >
          <p>
            Trace <code className="font-mono break-all text-fg">{trace.id}</code> is deleted for good, with its{' '}
            {plural(trace.spans.length, 'span')}, {plural(trace.decisionPoints.length, 'decision')} and{' '}
            {plural(trace.events.length, 'event')}. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
