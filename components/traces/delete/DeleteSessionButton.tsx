'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { plural } from '@/lib/core/format';
import { deleteRequests, sessionQueries } from '@/lib/client/delete';
import { traceQueries } from '@/lib/client/traces';
import { ConfirmDialog } from '@/components/settings/ConfirmDialog';
import { Spinner } from '@/components/ui/states';
import { useCanDelete } from './CanDelete';
import { deleteButton } from './styles';

/**
 * "Delete session's traces" (admins only), the GDPR erasure of one session: asks, naming
 * the session and how many traces it holds right now, then deletes them all. `after`:
 * 'list' leaves for the trace list (the detail page, whose trace goes too), 'refresh'
 * stays and shows what is left (the list filtered to that session).
 */
export function DeleteSessionButton({ sessionId, after }: { sessionId: string; after: 'list' | 'refresh' }) {
  const allowed = useCanDelete();
  const [open, setOpen] = useState(false);
  // The <dialog> joins the page on first use only: server HTML never holds it, so the
  // button may sit inside a <p> (where the HTML parser would close the paragraph at it).
  const [used, setUsed] = useState(false);
  const router = useRouter();
  const queryClient = useQueryClient();
  const count = useQuery({ ...sessionQueries.traceCount(sessionId), enabled: allowed && open });
  const remove = useMutation({
    mutationFn: () => deleteRequests.session(sessionId),
    onSuccess: async () => {
      if (after === 'list') {
        await queryClient.cancelQueries({ queryKey: traceQueries.details() });
        router.replace('/traces');
      }
      queryClient.removeQueries({ queryKey: traceQueries.details() });
      await queryClient.invalidateQueries({ queryKey: traceQueries.all() });
      router.refresh();
      setOpen(false);
    },
  });
  if (!allowed) return null;

  const n = count.data;
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
        Delete session’s traces
      </button>
      {used && (
        <ConfirmDialog
          open={open}
          title={`Delete the traces of session “${sessionId}”?`}
          confirmLabel={n === undefined ? 'Delete traces' : `Delete ${plural(n, 'trace')}`}
          pending={remove.isPending || n === undefined}
          error={remove.error?.message ?? (count.isError ? `Could not count the session’s traces: ${count.error.message}` : null)}
          onConfirm={() => remove.mutate()}
          onCancel={() => setOpen(false)}
        >
          {n === undefined ? (
            <p className="inline-flex items-center gap-2">
              <Spinner /> Counting the session’s traces…
            </p>
          ) : (
            <p>
              {n === 0 ? 'No trace' : n === 1 ? 'The 1 trace' : `All ${plural(n, 'trace')}`} of session{' '}
              <code className="font-mono break-all text-fg">{sessionId}</code>
              {n === 0 ? ' is left.' : ', with their spans, decisions and events, will be deleted for good. This cannot be undone.'}
            </p>
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
