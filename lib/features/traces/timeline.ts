// Places spans, decision points and events of one trace on a shared time axis.
// Pure and O(n): one pass to find the window, constant work per item after that.
// No clock is read here: an open (RUNNING) span ends at the last instant the trace
// knows of, so the server and the browser lay out the same picture.
import type { DecisionPointRecord, EventRecord, SpanSummary, TraceRecord } from './types';

export interface TimeWindow {
  /** Milliseconds since the epoch. */
  start: number;
  end: number;
  /** end - start, never below 1 ms so that positions stay finite. */
  duration: number;
}

export interface Interval {
  /** Milliseconds since the epoch. */
  start: number;
  end: number;
  /** No end is known: the span is still running, or never said when it ended. */
  open: boolean;
}

type TimelineInput = Pick<TraceRecord, 'startedAt' | 'endedAt'> & {
  spans: readonly SpanSummary[];
  decisionPoints: readonly DecisionPointRecord[];
  events: readonly EventRecord[];
};

function ms(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

function finite(n: number | null | undefined): n is number {
  return typeof n === 'number' && Number.isFinite(n);
}

/** When a span ends: endedAt, else startedAt + durationMs, else unknown (open). */
export function spanEnd(span: Pick<SpanSummary, 'startedAt' | 'endedAt' | 'durationMs'>): number | null {
  const ended = ms(span.endedAt);
  if (ended !== null) return ended;
  const started = ms(span.startedAt);
  if (started !== null && finite(span.durationMs) && span.durationMs >= 0) return started + span.durationMs;
  return null;
}

/** The time range that holds the trace and everything in it. */
export function computeWindow(trace: TimelineInput): TimeWindow {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  const see = (t: number | null) => {
    if (t === null) return;
    if (t < start) start = t;
    if (t > end) end = t;
  };
  see(ms(trace.startedAt));
  see(ms(trace.endedAt));
  for (const span of trace.spans) {
    see(ms(span.startedAt));
    see(spanEnd(span));
  }
  for (const d of trace.decisionPoints) {
    const t = ms(d.timestamp);
    see(t);
    if (t !== null && finite(d.durationMs) && d.durationMs > 0) see(t + d.durationMs);
  }
  for (const e of trace.events) see(ms(e.timestamp));
  if (start === Number.POSITIVE_INFINITY) {
    start = 0;
    end = 0;
  }
  return { start, end, duration: Math.max(1, end - start) };
}

/** A span's interval; an open span runs to the end of the window. */
export function spanInterval(span: Pick<SpanSummary, 'startedAt' | 'endedAt' | 'durationMs'>, window: TimeWindow): Interval {
  const start = ms(span.startedAt) ?? window.start;
  const end = spanEnd(span);
  if (end === null) return { start, end: Math.max(start, window.end), open: true };
  return { start, end: Math.max(start, end), open: false };
}

/** Where an instant falls on the window, in percent (0 to 100, clamped). */
export function toPercent(window: TimeWindow, t: number): number {
  const p = ((t - window.start) / window.duration) * 100;
  return p < 0 ? 0 : p > 100 ? 100 : p;
}

export interface BarLayout {
  /** Percent of the window from its left edge. */
  left: number;
  /** Percent of the window; 0 for an instant. */
  width: number;
}

/** A bar for [start, end] on the window, in percent. */
export function barLayout(window: TimeWindow, start: number, end: number): BarLayout {
  const left = toPercent(window, start);
  const right = toPercent(window, end);
  return { left, width: Math.max(0, right - left) };
}

/** Milliseconds from the window start (what "+1.2 s" labels show). */
export function offsetOf(window: TimeWindow, iso: string | null | undefined): number | null {
  const t = ms(iso);
  return t === null ? null : t - window.start;
}

const NICE_STEPS = [1, 2, 2.5, 5, 10];

/**
 * Round tick offsets (ms from the window start) for an axis: about `target` ticks at
 * a 1/2/2.5/5 × 10^k step, always starting at 0 and never past the duration.
 */
export function axisTicks(duration: number, target = 5): number[] {
  if (!(duration > 0)) return [0];
  const raw = duration / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  let step = magnitude * 10;
  for (const s of NICE_STEPS) {
    if (s * magnitude >= raw) {
      step = s * magnitude;
      break;
    }
  }
  const ticks: number[] = [];
  // Bounded by construction (≤ target + 1 steps); the cap is a guard against rounding.
  for (let t = 0; t <= duration + step * 1e-9 && ticks.length <= target * 3; t += step) ticks.push(t);
  return ticks;
}
