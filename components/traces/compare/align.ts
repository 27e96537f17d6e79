// Two runs side by side: their paths step by step, and their spans paired by name and
// position (the first "search" with the first "search", and so on, each in start order).
// Pure and safe for client components.
import { firstDifference, sameStep, type Step } from '@/lib/features/paths/shared';
import { formatCost, formatDuration, formatTokens } from '@/lib/core/format';
import { spanEnd } from '@/lib/features/traces/shared';
import type { SpanRecord, SpanType } from '@/lib/features/traces/shared';
import { statusLabel } from '@/components/ui/badges';

export interface StepPair {
  index: number;
  a: Step | null;
  b: Step | null;
  same: boolean;
}

/** Both paths aligned by position, and where they first differ (null when equal). */
export function alignPaths(a: readonly Step[], b: readonly Step[]): { rows: StepPair[]; firstDifference: number | null } {
  const rows: StepPair[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    rows.push({ index: i, a: x, b: y, same: x !== null && y !== null && sameStep(x, y) });
  }
  return { rows, firstDifference: firstDifference(a, b) };
}

/** What the comparison reads of a span: the outline's fields (no payloads). */
export type ComparedSpan = Pick<SpanRecord, 'id' | 'name' | 'type' | 'status' | 'startedAt' | 'endedAt' | 'durationMs' | 'tokenCount' | 'costUsd'>;

export interface SpanPair<S extends ComparedSpan = ComparedSpan> {
  /** The span name and its occurrence among spans of that name (0 for the first). */
  name: string;
  occurrence: number;
  a: S | null;
  b: S | null;
}

const byStart = (x: ComparedSpan, y: ComparedSpan) => Date.parse(x.startedAt) - Date.parse(y.startedAt) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);

/** Spans of both runs paired by (name, occurrence), in the order of the first run's spans, then the second's unpaired ones. */
export function alignSpans<S extends ComparedSpan>(a: readonly S[], b: readonly S[]): SpanPair<S>[] {
  const keyed = (spans: readonly S[]) => {
    const seen = new Map<string, number>();
    return [...spans].sort(byStart).map((span) => {
      const occurrence = seen.get(span.name) ?? 0;
      seen.set(span.name, occurrence + 1);
      return { key: `${span.name}\u001f${occurrence}`, occurrence, span };
    });
  };
  const left = keyed(a);
  const right = keyed(b);
  const rightByKey = new Map(right.map((r) => [r.key, r]));
  const paired = new Set<string>();
  const out: SpanPair<S>[] = left.map((l) => {
    const r = rightByKey.get(l.key);
    if (r) paired.add(l.key);
    return { name: l.span.name, occurrence: l.occurrence, a: l.span, b: r?.span ?? null };
  });
  for (const r of right) if (!paired.has(r.key)) out.push({ name: r.span.name, occurrence: r.occurrence, a: null, b: r.span });
  return out;
}

/**
 * A span's or a run's duration as endedAt − startedAt (a span without endedAt ends at
 * startedAt + durationMs, as the timeline reads it); null while it runs or when unknown.
 */
export function elapsedMs(x: Pick<SpanRecord, 'startedAt' | 'endedAt'> & { durationMs?: number | null }): number | null {
  const end = spanEnd({ startedAt: x.startedAt, endedAt: x.endedAt, durationMs: x.durationMs ?? null });
  const start = Date.parse(x.startedAt);
  return end === null || Number.isNaN(start) ? null : end - start;
}

/** How a span pair differs: the fields whose values are not equal. */
export function spanDifferences(p: SpanPair): Array<'status' | 'duration' | 'tokens' | 'cost' | 'missing'> {
  if (!p.a || !p.b) return ['missing'];
  const out: Array<'status' | 'duration' | 'tokens' | 'cost'> = [];
  if (p.a.status !== p.b.status) out.push('status');
  if (elapsedMs(p.a) !== elapsedMs(p.b)) out.push('duration');
  if (p.a.tokenCount !== p.b.tokenCount) out.push('tokens');
  if (p.a.costUsd !== p.b.costUsd) out.push('cost');
  return out;
}

/**
 * One row of the span table as the page sends it to the browser, written out already (a
 * 10,000-span comparison is that many rows, and the browser draws only those in view), as
 * a tuple: the page carries thousands, and key names were 40% of their bytes. Each figure
 * is "A / B", "—" for a side without the span or the figure; `only` is the run that alone
 * has the span ("" when both do); `differs` is spanDifferences, space-separated.
 */
export type SpanRow = [name: string, occurrence: number, type: SpanType, only: '' | 'A' | 'B', differs: string, status: string, duration: string, tokens: string, cost: string];

/** The span table's rows, in alignSpans' order. */
export function spanRows(pairs: readonly SpanPair[]): SpanRow[] {
  return pairs.map((p) => {
    const both = (f: (s: ComparedSpan) => string | null) => `${(p.a && f(p.a)) ?? '—'} / ${(p.b && f(p.b)) ?? '—'}`;
    return [
      p.name,
      p.occurrence,
      (p.a ?? p.b)!.type,
      p.a && p.b ? '' : p.a ? 'A' : 'B',
      spanDifferences(p).join(' '),
      both((s) => statusLabel(s.status)),
      both((s) => formatDuration(elapsedMs(s))),
      both((s) => formatTokens(s.tokenCount)),
      both((s) => formatCost(s.costUsd)),
    ];
  });
}

/** A pair of model calls whose input and output the page diffs when opened. */
export interface ModelCallPair {
  name: string;
  occurrence: number;
  a: string;
  b: string;
}

/** The pairs in which both runs made the span a model call (their span ids). */
export function modelCallPairs(pairs: readonly SpanPair[]): ModelCallPair[] {
  const out: ModelCallPair[] = [];
  for (const p of pairs) {
    if (p.a?.type === 'LLM_CALL' && p.b?.type === 'LLM_CALL') out.push({ name: p.name, occurrence: p.occurrence, a: p.a.id, b: p.b.id });
  }
  return out;
}
