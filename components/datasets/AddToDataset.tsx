'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState, type FormEvent } from 'react';
import type { DecisionPointRecord } from '@/lib/features/traces/shared';
import { fetchJson, traceQueries } from '@/lib/client/traces';
import { jsonOrText, jsonTextarea } from './fields';
import { errorText, fieldLabel, input, primaryButton, secondaryButton } from '@/components/settings/styles';
import { useCanCurate } from './CanCurate';


const pretty = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value, null, 2));


/** The run's decisions as expected ones: in time order (then id), each its chosen option and type. */
export function expectedFrom(decisions: readonly DecisionPointRecord[]) {
  return [...decisions]
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((d) => ({ type: d.type, chosen: d.chosen ?? null }));
}

/**
 * "Add to dataset": a trace's (or a span's) input as an item's input, its output as the
 * expected output (a person corrects it before saving, which is the point), its decisions
 * as the expected ones if wanted, and where it came from.
 */
export function AddToDataset({ traceId, spanId, decisions, what = 'trace' }: { traceId: string; spanId: string | null; decisions: readonly DecisionPointRecord[]; what?: 'trace' | 'span' }) {
  const allowed = useCanCurate();
  const [open, setOpen] = useState(false);
  if (!allowed || spanId === null) return null;
  return (
    <span className="relative">
      <button type="button" className="font-medium text-accent hover:underline" aria-expanded={open} onClick={() => setOpen((v) => !v)} data-testid="add-to-dataset">
        Add to dataset
      </button>
      {open && <AddToDatasetForm traceId={traceId} spanId={spanId} decisions={decisions} what={what} onClose={() => setOpen(false)} />}
    </span>
  );
}

function AddToDatasetForm({ traceId, spanId, decisions, what, onClose }: { traceId: string; spanId: string; decisions: readonly DecisionPointRecord[]; what: 'trace' | 'span'; onClose: () => void }) {
  const id = useId();
  const span = useQuery(traceQueries.span(traceId, spanId));
  const datasets = useQuery({
    queryKey: ['datasets', 'names'],
    queryFn: async ({ signal }) => (await fetchJson<{ datasets: Array<{ name: string }> }>('/api/datasets?limit=100', { signal })).datasets.map((d) => d.name),
  });
  const [dataset, setDataset] = useState('');
  const [edited, setEdited] = useState<{ input?: string; expected?: string }>({});
  const [withDecisions, setWithDecisions] = useState(decisions.length > 0);
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const itemInput = edited.input ?? pretty(span.data?.input);
  const expected = edited.expected ?? pretty(span.data?.output);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const item = {
        input: jsonOrText(itemInput) ?? null,
        expectedOutput: jsonOrText(expected),
        ...(withDecisions && decisions.length > 0 ? { expectedDecisions: expectedFrom(decisions) } : {}),
        sourceTraceId: traceId,
        metadata: what === 'span' ? { sourceSpanId: spanId } : undefined,
      };
      await fetchJson(`/api/datasets/${encodeURIComponent(dataset.trim())}/items`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items: [item] }),
      });
      setDone(dataset.trim());
    } catch (err) {
      setProblem((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    // On a phone a panel over the page (the button may sit anywhere in its row); wider, a popover under the button.
    <form
      aria-label={`Add this ${what} to a dataset`}
      onSubmit={submit}
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
      className="fixed inset-x-2 top-16 z-30 flex max-h-[80vh] flex-col gap-2 overflow-y-auto rounded-lg border border-border-strong bg-bg p-3 text-sm text-fg shadow-lg sm:absolute sm:inset-x-auto sm:top-auto sm:right-0 sm:mt-2 sm:w-[32rem]"
    >
      <label className="flex flex-col gap-1">
        <span className={fieldLabel}>Dataset</span>
        <input className={input} list={`${id}-datasets`} value={dataset} onChange={(e) => setDataset(e.target.value)} required placeholder="support-questions" />
        <datalist id={`${id}-datasets`}>
          {(datasets.data ?? []).map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </label>
      <label className="flex flex-col gap-1">
        <span className={fieldLabel}>Input</span>
        <textarea className={jsonTextarea} value={itemInput} onChange={(e) => setEdited((v) => ({ ...v, input: e.target.value }))} />
      </label>
      <label className="flex flex-col gap-1">
        <span className={fieldLabel}>Expected output (correct it if the run got it wrong)</span>
        <textarea className={jsonTextarea} value={expected} onChange={(e) => setEdited((v) => ({ ...v, expected: e.target.value }))} />
      </label>
      {decisions.length > 0 && (
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={withDecisions} onChange={(e) => setWithDecisions(e.target.checked)} />
          <span>Expect its {decisions.length === 1 ? 'decision' : `${decisions.length} decisions`}, in order</span>
        </label>
      )}
      <div className="flex items-center gap-2">
        <button type="submit" className={primaryButton} disabled={busy || span.isPending}>
          Add item
        </button>
        <button type="button" className={secondaryButton} onClick={onClose}>
          Close
        </button>
      </div>
      {done && (
        <p role="status" className="text-sm">
          Added to{' '}
          <Link href={`/datasets/${encodeURIComponent(done)}`} className="font-medium text-accent hover:underline">
            {done}
          </Link>
        </p>
      )}
      {problem && (
        <p role="alert" className={errorText}>
          {problem}
        </p>
      )}
    </form>
  );
}
