// Pure helpers of the span tree's view: the ancestors kept in sight while scrolling, and
// the name column's width.
import type { TreeRow } from '@/lib/features/traces/shared';

export interface StickyPath {
  /** Row indices of the ancestors shown, outermost first. */
  indices: number[];
  /** Ancestors further out than those shown. */
  hidden: number;
}

/**
 * The ancestors of the row at `index` (the first row in view), nearest `max` of them,
 * outermost first; walks at most `max` + 1 parents (a 10,000-deep chain stays cheap) and
 * reads the rest from the row's depth.
 */
export function stickyPath(rows: readonly TreeRow[], index: number, max = 4): StickyPath {
  const row = rows[index];
  if (!row) return { indices: [], hidden: 0 };
  const indices: number[] = [];
  let at = row.parentIndex;
  while (at >= 0 && indices.length < max) {
    indices.push(at);
    at = rows[at].parentIndex;
  }
  indices.reverse();
  const outermost = indices.length > 0 ? rows[indices[0]].depth : 0;
  return { indices, hidden: outermost };
}

export const NAME_WIDTH_KEY = 'crossroads.trace.name-width';
export const MIN_NAME_PX = 120;
/** The duration and timeline columns keep at least this much of the row. */
export const MIN_REST_PX = 160;

/** The name column's width within what the row allows. */
export function clampNameWidth(px: number, rowPx: number): number {
  const max = Math.max(MIN_NAME_PX, rowPx - MIN_REST_PX);
  return Math.round(Math.min(max, Math.max(MIN_NAME_PX, px)));
}

/** A stored width, or null when none is stored or it is not a usable number. */
export function parseNameWidth(stored: string | null): number | null {
  if (stored === null || stored.trim() === '') return null;
  const n = Number(stored);
  return Number.isFinite(n) && n >= MIN_NAME_PX ? Math.round(n) : null;
}
