'use client';

import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';

// The details panel's width in pixels, remembered in localStorage for every trace.
const WIDTH_KEY = 'crossroads.details.width';
export const MIN_PANEL_PX = 280;
/** The tree keeps at least this much of the row. */
const MIN_TREE_PX = 360;
const DEFAULT_PANEL_PX = 400;
const ASSUMED_CONTAINER_PX = 1200;
/** Arrow keys move the divider this far; with Shift, four times as far. */
const KEY_STEP_PX = 24;

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function readWidth(): number {
  try {
    const stored = Number(window.localStorage.getItem(WIDTH_KEY));
    return Number.isFinite(stored) && stored >= MIN_PANEL_PX ? stored : DEFAULT_PANEL_PX;
  } catch {
    return DEFAULT_PANEL_PX;
  }
}

function storeWidth(px: number): void {
  try {
    window.localStorage.setItem(WIDTH_KEY, String(Math.round(px)));
  } catch {
    // Storage refused (private mode): the width holds for this page only.
  }
  for (const l of listeners) l();
}

/** The panel width within what the container allows. */
export function clampPanelWidth(px: number, containerPx: number): number {
  const max = Math.max(MIN_PANEL_PX, containerPx - MIN_TREE_PX);
  return Math.round(Math.min(max, Math.max(MIN_PANEL_PX, px)));
}

/**
 * The tree beside the details panel, with a divider between them: drag it, or focus it
 * and use the arrow keys (Home and End for the narrowest and widest panel). The width is
 * remembered. Below the `lg` breakpoint the page scrolls, the tree gets most of the screen's
 * height under the trace's header, and the panel opens as a sheet over it (DetailsPanel);
 * the divider is hidden.
 */
export function ResizableSplit({ main, side }: { main: ReactNode; side: ReactNode }) {
  const stored = useSyncExternalStore(subscribe, readWidth, () => DEFAULT_PANEL_PX);
  const containerRef = useRef<HTMLDivElement>(null);
  // While dragging: how far right of the panel's edge the pointer took hold, so the divider does not jump to the pointer.
  const grab = useRef<number | null>(null);
  // The row's width, measured once mounted (the server and hydration assume a wide one).
  const [containerPx, setContainerPx] = useState(ASSUMED_CONTAINER_PX);
  useEffect(() => {
    const el = containerRef.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setContainerPx(el.clientWidth || ASSUMED_CONTAINER_PX));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const width = clampPanelWidth(stored, containerPx);
  const max = Math.max(MIN_PANEL_PX, containerPx - MIN_TREE_PX);

  const set = useCallback((px: number) => storeWidth(clampPanelWidth(px, containerPx)), [containerPx]);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    const right = containerRef.current?.getBoundingClientRect().right ?? 0;
    grab.current = right - e.clientX - width;
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (grab.current === null || !containerRef.current) return;
    const rect = containerRef.current.getBoundingClientRect();
    set(rect.right - e.clientX - grab.current);
  };
  const onPointerUp = () => {
    grab.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? KEY_STEP_PX * 4 : KEY_STEP_PX;
    // The divider sits left of the panel: Left widens the panel, Right narrows it.
    if (e.key === 'ArrowLeft') set(width + step);
    else if (e.key === 'ArrowRight') set(width - step);
    else if (e.key === 'Home') set(MIN_PANEL_PX);
    else if (e.key === 'End') set(max);
    else return;
    e.preventDefault();
  };

  return (
    <div
      ref={containerRef}
      className="grid min-h-0 flex-1 grid-cols-1 grid-rows-[minmax(0,1fr)] gap-4 max-lg:h-[80dvh] max-lg:flex-none lg:grid-cols-[minmax(0,1fr)_auto_var(--panel-w)] lg:gap-0"
      style={{ ['--panel-w' as string]: `${width}px` }}
    >
      {main}
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize the details panel"
        aria-controls="trace-details-panel"
        aria-valuenow={width}
        aria-valuemin={MIN_PANEL_PX}
        aria-valuemax={max}
        aria-valuetext={`Details panel ${width} pixels wide`}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
        data-testid="split-handle"
        className="group hidden w-4 cursor-col-resize touch-none justify-center focus-visible:outline-none lg:flex"
      >
        <span className="h-full w-px bg-border group-hover:w-0.5 group-hover:bg-accent group-focus-visible:w-1 group-focus-visible:bg-accent" />
      </div>
      {/* Below lg the panel is a full-screen sheet or hidden: its wrapper takes no row, the tree keeps the height. */}
      <div id="trace-details-panel" className="grid min-h-0 min-w-0 grid-rows-[minmax(0,1fr)] max-lg:contents">
        {side}
      </div>
    </div>
  );
}
