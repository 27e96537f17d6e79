'use client';

import { useEffect, useRef, useState, type ReactNode, type PointerEvent } from 'react';
import { spanInterval, toPercent, type TimeWindow } from '@/lib/features/traces/shared';
import { clampView, rangeOfDrag, type ViewRange } from '@/lib/features/traces/shared';
import type { TraceModel } from './model';

/** A drag shorter than this (px) is a click, not a range. */
const MIN_DRAG_PX = 4;
const MINIMAP_HEIGHT = 20;

interface Drag {
  from: number;
  to: number;
  width: number;
}

/** Pointer drags across `children` as fractions of its width (0 = left edge). */
function useDrag(onDone: (drag: Drag) => void) {
  const [drag, setDrag] = useState<Drag | null>(null);
  const fraction = (e: PointerEvent<HTMLElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return { at: rect.width > 0 ? (e.clientX - rect.left) / rect.width : 0, width: rect.width };
  };
  return {
    drag,
    handlers: {
      onPointerDown: (e: PointerEvent<HTMLElement>) => {
        if (e.button !== 0) return;
        e.currentTarget.setPointerCapture(e.pointerId);
        const { at, width } = fraction(e);
        setDrag({ from: at, to: at, width });
      },
      onPointerMove: (e: PointerEvent<HTMLElement>) => {
        if (!drag) return;
        const { at } = fraction(e);
        setDrag({ ...drag, to: Math.min(1, Math.max(0, at)) });
      },
      onPointerUp: () => {
        if (drag) onDone(drag);
        setDrag(null);
      },
      onPointerCancel: () => setDrag(null),
    },
  };
}

function Selection({ drag }: { drag: Drag | null }) {
  if (!drag || Math.abs(drag.to - drag.from) * drag.width < MIN_DRAG_PX) return null;
  const left = Math.min(drag.from, drag.to) * 100;
  return (
    <span
      aria-hidden="true"
      data-testid="range-selection"
      className="pointer-events-none absolute inset-y-0 z-10 bg-accent/20 ring-1 ring-accent"
      style={{ left: `${left}%`, width: `${Math.abs(drag.to - drag.from) * 100}%` }}
    />
  );
}

/** The axis's tick strip: dragging across it zooms the timeline to the range dragged. */
export function RangeDrag({ view, onView, className, children }: { view: TimeWindow; onView: (range: ViewRange) => void; className: string; children: ReactNode }) {
  const { drag, handlers } = useDrag((d) => {
    if (Math.abs(d.to - d.from) * d.width < MIN_DRAG_PX) return;
    onView(rangeOfDrag(view, d.from, d.to, view));
  });
  return (
    <div {...handlers} data-testid="axis-drag" title="Drag across the axis to zoom to a range" className={`${className} cursor-crosshair touch-none select-none`}>
      {children}
      <Selection drag={drag} />
    </div>
  );
}

/**
 * The whole trace in a strip: every span a stroke (time across, start order down), the
 * range shown framed. Click to centre the view there; drag to show a range.
 */
export function Minimap({ model, view, onView }: { model: TraceModel; view: TimeWindow; onView: (range: ViewRange) => void }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const full = model.window;
  const [width, setWidth] = useState(0);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const observer = new ResizeObserver(() => setWidth(canvas.clientWidth));
    observer.observe(canvas);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || width === 0) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(MINIMAP_HEIGHT * ratio);
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.scale(ratio, ratio);
    ctx.clearRect(0, 0, width, MINIMAP_HEIGHT);
    const spans = model.trace.spans;
    const rowHeight = Math.max(MINIMAP_HEIGHT / Math.max(spans.length, 1), 0.5);
    // Mid-tone strokes read on both the light and the dark background.
    for (const [errors, colour] of [
      [false, 'rgba(100, 116, 139, 0.75)'],
      [true, 'rgba(220, 38, 38, 0.95)'],
    ] as const) {
      ctx.fillStyle = colour;
      spans.forEach((span, i) => {
        if ((span.status === 'ERROR') !== errors) return;
        const iv = spanInterval(span, full);
        const x = (toPercent(full, iv.start) / 100) * width;
        const w = Math.max(1, ((toPercent(full, iv.end) - toPercent(full, iv.start)) / 100) * width);
        ctx.fillRect(x, (i / Math.max(spans.length, 1)) * MINIMAP_HEIGHT, w, Math.max(rowHeight, errors ? 1.5 : 0.5));
      });
    }
  }, [model, full, width]);

  const { drag, handlers } = useDrag((d) => {
    const bounds = { start: full.start, end: full.end };
    if (Math.abs(d.to - d.from) * d.width >= MIN_DRAG_PX) {
      onView(rangeOfDrag(bounds, d.from, d.to, bounds));
      return;
    }
    // A click: the same width, centred where clicked.
    const at = full.start + full.duration * d.to;
    const half = view.duration / 2;
    onView(clampView({ start: at - half, end: at + half }, bounds));
  });

  const left = toPercent(full, view.start);
  const right = toPercent(full, view.end);
  return (
    <div
      {...handlers}
      data-testid="minimap"
      role="img"
      aria-label="The whole trace at a glance; the frame marks the range the timeline shows"
      title="Click to move the view here; drag to show a range"
      className="relative cursor-pointer touch-none overflow-hidden border-b border-border select-none"
      style={{ height: MINIMAP_HEIGHT }}
    >
      <canvas ref={canvasRef} className="absolute inset-0 h-full w-full" />
      {/* Outside the range shown is dimmed; the frame is the range. */}
      <span aria-hidden="true" className="absolute inset-y-0 left-0 bg-bg/60" style={{ width: `${left}%` }} />
      <span aria-hidden="true" className="absolute inset-y-0 right-0 bg-bg/60" style={{ width: `${100 - right}%` }} />
      <span
        aria-hidden="true"
        data-testid="minimap-frame"
        className="absolute inset-y-0 rounded-sm border-2 border-accent"
        style={{ left: `${left}%`, width: `max(4px, ${right - left}%)` }}
      />
      <Selection drag={drag} />
    </div>
  );
}
