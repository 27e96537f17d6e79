'use client';

import { useEffect, useSyncExternalStore } from 'react';
import { exactTitle, formatDateTime, formatRelative } from '@/lib/core/format';

// One shared clock for every relative time on the page, ticking while anything
// listens. Server renders (and the hydrating render) use the server's clock, passed
// down as a prop, so the first client render matches the HTML exactly.
const TICK_MS = 15_000;
let clock = 0;
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function subscribeClock(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    clock = Date.now();
    timer = setInterval(() => {
      clock = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

function readClock(): number {
  if (clock === 0) clock = Date.now();
  return clock;
}

/** Now, in ms: the server's `serverNow` while hydrating, the browser's clock after. */
export function useNow(serverNow: number): number {
  return useSyncExternalStore(subscribeClock, readClock, () => serverNow);
}

const noSubscription = () => () => {};

/** False on the server and during hydration, true afterwards. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * Marks the document once a page's own client view has hydrated (pages hydrate inside
 * Suspense boundaries, after the root layout): end-to-end tests wait for it before
 * pressing keys, and it costs one attribute.
 */
export function useHydrationMarker(view: string): void {
  useEffect(() => {
    document.documentElement.dataset.hydrated = view;
  }, [view]);
}

/** Exact instants in the reader's time zone once hydrated (UTC before, as on the server). */
export function useTimeZone(): 'UTC' | 'local' {
  return useHydrated() ? 'local' : 'UTC';
}

// Every instant on the page reads in one format (lib/core/format.ts formatDateTime), in the
// reader's zone once hydrated, with UTC on hover.

/** "3 min ago", with the exact instant (local and UTC) on hover and for screen readers. */
export function RelativeTime({ iso, serverNow, className }: { iso: string; serverNow: number; className?: string }) {
  const now = useNow(serverNow);
  const zone = useTimeZone();
  const exact = formatDateTime(iso, zone);
  return (
    <time dateTime={iso} title={exactTitle(iso, zone)} className={className}>
      <span aria-hidden="true">{formatRelative(iso, now, zone)}</span>
      <span className="sr-only">{exact}</span>
    </time>
  );
}

/** An exact instant, in the reader's zone once hydrated, with UTC on hover. */
export function DateTime({ iso, className }: { iso: string | null; className?: string }) {
  const zone = useTimeZone();
  if (!iso) return <span className={className}>—</span>;
  return (
    <time dateTime={iso} title={exactTitle(iso, zone)} className={className}>
      {formatDateTime(iso, zone)}
    </time>
  );
}
