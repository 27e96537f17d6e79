// Two runs side by side: their paths step by step, and their spans paired by name and
// position (the first "search" with the first "search", and so on, each in start order).
// Pure and safe for client components.
import { firstDifference, sameStep, type Step } from '@/lib/features/paths/shared';
import { spanEnd } from '@/lib/features/traces/shared';
import type { SpanRecord } from '@/lib/features/traces/shared';

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

export interface SpanPair {
  /** The span name and its occurrence among spans of that name (0 for the first). */
  name: string;
  occurrence: number;
  a: SpanRecord | null;
  b: SpanRecord | null;
}

const byStart = (x: SpanRecord, y: SpanRecord) => Date.parse(x.startedAt) - Date.parse(y.startedAt) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);

/** Spans of both runs paired by (name, occurrence), in the order of the first run's spans, then the second's unpaired ones. */
export function alignSpans(a: readonly SpanRecord[], b: readonly SpanRecord[]): SpanPair[] {
  const keyed = (spans: readonly SpanRecord[]) => {
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
  const out: SpanPair[] = left.map((l) => {
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
