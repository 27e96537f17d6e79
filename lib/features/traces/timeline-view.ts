// The timeline's visible time range: the axis that leaves out outliers until asked, and
// the zoom and pan arithmetic (wheel, pinch, a dragged range, "zoom to span"). Pure; all
// times are milliseconds since the epoch, fractions are of the visible range's width.
import type { TimeWindow } from './timeline';

/** A time range [start, end] shown on the axis. */
export interface ViewRange {
  start: number;
  end: number;
}

/** The narrowest range a zoom may show: below it, bars are wider than any screen. */
export const MIN_VIEW_MS = 1;

/**
 * A gap counts as an outlier's when it is longer than the whole of what precedes it (or
 * follows it, at the start): a feedback event 30 s after a 12 s run is; a step that took
 * as long as everything before it is not (it is the run).
 */
const OUTLIER_GAP_RATIO = 1;
/** At most this share of the instants can be left out at each end (at least 1, and 2 from 10 instants). */
const MAX_OUTLIER_SHARE = 0.02;

export interface FocusWindow {
  /** The range the axis shows by default: everything but the outliers. */
  window: TimeWindow;
  /** Instants left out before and after it. */
  before: number;
  after: number;
}

function windowOf(start: number, end: number): TimeWindow {
  return { start, end, duration: Math.max(MIN_VIEW_MS, end - start) };
}

/**
 * The axis's default range: the full window, less a few instants far before or after the
 * rest (up to MAX_OUTLIER_SHARE of them at each end, cut at the widest gap that is longer
 * than everything on the other side of it). `instants` are every time the trace shows:
 * span starts and ends, decision points, events. A span is never cut from itself: the
 * range keeps the whole of each span that starts or ends in it (`spans`: [start, end]),
 * so a run of one long span and a decision early in it is not trimmed to the decision.
 * O(n log n).
 */
export function focusWindow(instants: readonly number[], full: TimeWindow, spans: ReadonlyArray<readonly [number, number]> = []): FocusWindow {
  const points = instants.filter((t) => Number.isFinite(t)).sort((a, b) => a - b);
  const n = points.length;
  const maxTrim = Math.max(n >= 10 ? 2 : 1, Math.floor(n * MAX_OUTLIER_SHARE));
  // The core keeps at least two instants.
  if (n < 3) return { window: full, before: 0, after: 0 };

  // Each end's core is measured without the other end's outliers: two rounds settle both.
  let after = 0;
  let before = 0;
  for (let round = 0; round < 2; round++) {
    after = 0;
    for (let k = 1; k <= maxTrim && n - k - 1 > before; k++) {
      const gap = points[n - k] - points[n - k - 1];
      const core = points[n - k - 1] - points[before];
      if (core > 0 && gap > core * OUTLIER_GAP_RATIO) after = k;
    }
    before = 0;
    const last = n - 1 - after;
    for (let k = 1; k <= maxTrim && last - k >= 1; k++) {
      const gap = points[k] - points[k - 1];
      const core = points[last] - points[k];
      if (core > 0 && gap > core * OUTLIER_GAP_RATIO) before = k;
    }
  }
  if (before === 0 && after === 0) return { window: full, before: 0, after: 0 };
  let [start, end] = [points[before], points[n - 1 - after]];
  // Widening for one span may take in another's start or end: until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [s, e] of spans) {
      if (!Number.isFinite(s) || !Number.isFinite(e)) continue;
      const overlaps = (s >= start && s <= end) || (e >= start && e <= end);
      if (overlaps && (s < start || e > end)) {
        [start, end] = [Math.min(start, s), Math.max(end, e)];
        changed = true;
      }
    }
  }
  before = points.filter((t) => t < start).length;
  after = points.filter((t) => t > end).length;
  if (before === 0 && after === 0) return { window: full, before: 0, after: 0 };
  return { window: windowOf(start, end), before, after };
}

/** `view` moved and narrowed to lie within `bounds`, at least MIN_VIEW_MS wide (or all of bounds when narrower). */
export function clampView(view: ViewRange, bounds: ViewRange): ViewRange {
  const boundsWidth = bounds.end - bounds.start;
  let width = Math.min(Math.max(view.end - view.start, MIN_VIEW_MS), boundsWidth);
  if (!(width > 0)) width = boundsWidth;
  let start = Math.min(Math.max(view.start, bounds.start), bounds.end - width);
  if (!Number.isFinite(start)) start = bounds.start;
  return { start, end: start + width };
}

/**
 * Zooms by `factor` (< 1 narrows, > 1 widens) keeping the instant under `anchor` (a
 * fraction of the width, 0 = left edge) where it is: what a wheel or a pinch does.
 */
export function zoomAt(view: ViewRange, factor: number, anchor: number, bounds: ViewRange): ViewRange {
  const width = view.end - view.start;
  const a = Math.min(1, Math.max(0, anchor));
  const at = view.start + width * a;
  const next = Math.max(MIN_VIEW_MS, width * factor);
  return clampView({ start: at - next * a, end: at - next * a + next }, bounds);
}

/** Moves the view by `fraction` of its width (positive: later), kept within bounds. */
export function panBy(view: ViewRange, fraction: number, bounds: ViewRange): ViewRange {
  const shift = (view.end - view.start) * fraction;
  return clampView({ start: view.start + shift, end: view.end + shift }, bounds);
}

/** The range between two points of a drag, as fractions of the view's width (either order). */
export function rangeOfDrag(view: ViewRange, from: number, to: number, bounds: ViewRange): ViewRange {
  const width = view.end - view.start;
  const [a, b] = from <= to ? [from, to] : [to, from];
  return clampView({ start: view.start + width * Math.max(0, a), end: view.start + width * Math.min(1, b) }, bounds);
}

/** A span's range with a margin on each side (a tenth of its length), for "zoom to span". */
export function rangeAround(start: number, end: number, bounds: ViewRange): ViewRange {
  const length = Math.max(end - start, MIN_VIEW_MS);
  const margin = length * 0.1;
  return clampView({ start: start - margin, end: end + margin }, bounds);
}

/**
 * Round ticks for the visible range, labelled from the trace's start (`origin`): about
 * `target` of them at a 1/2/2.5/5 × 10^k ms step, as absolute instants with their offsets.
 */
export function viewTicks(origin: number, view: ViewRange, target = 5): Array<{ at: number; offset: number }> {
  const width = view.end - view.start;
  if (!(width > 0)) return [{ at: view.start, offset: view.start - origin }];
  const raw = width / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  let step = magnitude * 10;
  for (const s of [1, 2, 2.5, 5, 10]) {
    if (s * magnitude >= raw) {
      step = s * magnitude;
      break;
    }
  }
  const ticks: Array<{ at: number; offset: number }> = [];
  const first = Math.ceil((view.start - origin) / step - 1e-9) * step || 0;
  for (let offset = first; origin + offset <= view.end + step * 1e-9 && ticks.length <= target * 3; offset += step) {
    ticks.push({ at: origin + offset, offset });
  }
  return ticks;
}

/** The view as a TimeWindow (what toPercent and barLayout take). */
export function viewWindow(view: ViewRange): TimeWindow {
  return windowOf(view.start, view.end);
}
