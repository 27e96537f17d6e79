'use client';

// How this browser lays the trace table out: the columns' widths a person dragged, and
// the row density. Both remembered in localStorage, like the chosen columns.
import { useCallback, useMemo } from 'react';
import { useStoredString } from '@/components/ui/stored';

export const MIN_COLUMN_PX = 44;
export const MAX_COLUMN_PX = 640;
const WIDTHS_KEY = 'crossroads.list.widths';
const DENSITY_KEY = 'crossroads.list.density';

export type ColumnWidths = Record<string, number>;

export function clampWidth(px: number): number {
  return Math.round(Math.min(MAX_COLUMN_PX, Math.max(MIN_COLUMN_PX, px)));
}

/** Stored widths, whatever was stored: only column keys with a width in range are kept. */
export function parseWidths(raw: string | null): ColumnWidths {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1])).map(([k, px]) => [k, clampWidth(px)]),
    );
  } catch {
    return {};
  }
}

/** The widths set by hand, by column key, and a setter (null: back to the column's own width). */
export function useColumnWidths(): [ColumnWidths, (key: string, px: number | null) => void] {
  const [raw, setRaw] = useStoredString(WIDTHS_KEY);
  const widths = useMemo(() => parseWidths(raw), [raw]);
  const setWidth = useCallback(
    (key: string, px: number | null) => {
      const next = { ...widths };
      if (px === null) delete next[key];
      else next[key] = clampWidth(px);
      setRaw(Object.keys(next).length ? JSON.stringify(next) : null);
    },
    [widths, setRaw],
  );
  return [widths, setWidth];
}

/** Compact rows: one line shorter, more of them on a screen. */
export function useCompactRows(): [boolean, (compact: boolean) => void] {
  const [raw, setRaw] = useStoredString(DENSITY_KEY);
  const setCompact = useCallback((compact: boolean) => setRaw(compact ? 'compact' : null), [setRaw]);
  return [raw === 'compact', setCompact];
}
