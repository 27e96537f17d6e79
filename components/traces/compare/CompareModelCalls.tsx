'use client';

import { useQuery } from '@tanstack/react-query';
import { diffLines } from 'diff';
import { useState } from 'react';
import { traceQueries } from '@/lib/client/traces';
import type { JsonValue } from '@/lib/features/traces/shared';
import { Spinner } from '@/components/ui/states';
import type { ModelCallPair } from './align';

/** Model-call payloads longer than this are diffed on their first part only (a diff is quadratic at worst). */
const MAX_DIFF_CHARS = 20_000;
/** Model calls listed at first; "Show more" adds as many again. */
const PAGE = 50;

/** Each paired model call, its input and output diffed when it is opened (the payloads load then). */
export function CompareModelCalls({ a, b, pairs }: { a: string; b: string; pairs: ModelCallPair[] }) {
  const [shown, setShown] = useState(PAGE);
  return (
    <>
      {pairs.slice(0, shown).map((p) => (
        <ModelCall key={`${p.name}\u001f${p.occurrence}`} traceA={a} traceB={b} pair={p} />
      ))}
      {pairs.length > shown && (
        <button
          type="button"
          onClick={() => setShown((n) => n + PAGE)}
          className="self-start rounded-md border border-border-strong bg-bg px-3 py-1 text-sm font-medium hover:bg-surface-2"
        >
          Show more ({(pairs.length - shown).toLocaleString('en-US')} left)
        </button>
      )}
    </>
  );
}

function ModelCall({ traceA, traceB, pair }: { traceA: string; traceB: string; pair: ModelCallPair }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="rounded-lg border border-border bg-surface p-2" data-testid="compare-model" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="cursor-pointer text-sm font-medium">
        {pair.name}
        {pair.occurrence > 0 && ` #${pair.occurrence + 1}`}
      </summary>
      {open && <ModelCallDiff traceA={traceA} traceB={traceB} pair={pair} />}
    </details>
  );
}

function ModelCallDiff({ traceA, traceB, pair }: { traceA: string; traceB: string; pair: ModelCallPair }) {
  const a = useQuery(traceQueries.span(traceA, pair.a));
  const b = useQuery(traceQueries.span(traceB, pair.b));
  if (a.isError || b.isError) {
    return (
      <p role="alert" className="mt-2 text-sm text-red-800 dark:text-red-200">
        Could not load the model calls: {(a.error ?? b.error)?.message}
      </p>
    );
  }
  if (!a.data || !b.data) return <Spinner label="Loading the model calls" className="mt-2 text-muted" />;
  return (
    <>
      <TextDiff title="Input" a={a.data.input} b={b.data.input} />
      <TextDiff title="Output" a={a.data.output} b={b.data.output} />
    </>
  );
}

const text = (v: JsonValue) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2) ?? '').slice(0, MAX_DIFF_CHARS);

function TextDiff({ title, a, b }: { title: string; a: JsonValue; b: JsonValue }) {
  const parts = diffLines(text(a), text(b));
  const same = parts.every((p) => !p.added && !p.removed);
  return (
    <div className="mt-2">
      <p className="text-xs font-medium text-muted">
        {title}
        {same && ' (the same)'}
      </p>
      <pre className="mt-1 max-h-80 overflow-auto rounded bg-bg p-2 font-mono text-xs whitespace-pre-wrap break-words" data-testid="text-diff">
        {parts.map((p, i) => (
          <span
            key={i}
            className={p.added ? 'bg-emerald-100 text-emerald-950 dark:bg-emerald-950 dark:text-emerald-100' : p.removed ? 'bg-red-100 text-red-950 line-through dark:bg-red-950 dark:text-red-100' : ''}
          >
            {p.added ? '+ ' : p.removed ? '- ' : ''}
            {p.value}
          </span>
        ))}
      </pre>
    </div>
  );
}
