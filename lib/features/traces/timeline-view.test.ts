import { describe, expect, it } from 'vitest';
import { clampView, focusWindow, panBy, rangeAround, rangeOfDrag, viewTicks, zoomAt } from './timeline-view';

const S = 1000;
const full = (start: number, end: number) => ({ start, end, duration: end - start });
/** A 12 s run: a span every second, each 1 s long. */
const run = Array.from({ length: 12 }, (_, i) => [i * S, (i + 1) * S]).flat();

describe('focusWindow', () => {
  it('leaves out a feedback event 30 s after a 12 s run', () => {
    const f = focusWindow([...run, 42 * S], full(0, 42 * S));
    expect(f.window).toEqual({ start: 0, end: 12 * S, duration: 12 * S });
    expect(f).toMatchObject({ before: 0, after: 1 });
  });

  it('leaves out a small cluster of late instants, and an early one', () => {
    const f = focusWindow([-60 * S, ...run, 40 * S, 41 * S], full(-60 * S, 41 * S));
    expect(f.window).toMatchObject({ start: 0, end: 12 * S });
    expect(f).toMatchObject({ before: 1, after: 2 });
  });

  it('keeps the whole run when nothing stands apart', () => {
    expect(focusWindow(run, full(0, 12 * S))).toMatchObject({ window: full(0, 12 * S), before: 0, after: 0 });
    // A last step as long as everything before it is part of the run.
    expect(focusWindow([...run, 24 * S], full(0, 24 * S)).after).toBe(0);
  });

  it('never cuts a span from itself: one long span with a decision early in it keeps its end', () => {
    // The README's first trace: an agent span of 2 s, a decision at 0.5 s.
    const instants = [0, 500, 2000];
    // Instants alone read the span's end as an outlier (the axis showed +0 to +500 ms of 2 s).
    expect(focusWindow(instants, full(0, 2000))).toMatchObject({ after: 1 });
    expect(focusWindow(instants, full(0, 2000), [[0, 2000]])).toMatchObject({ window: full(0, 2000), before: 0, after: 0 });
    // A late event stays an outlier; a span that starts in the run pulls its own end in, not the event.
    const late = focusWindow([0, 500, 2000, 2100, 60 * S], full(0, 60 * S), [[0, 2000], [500, 2100]]);
    expect(late).toMatchObject({ window: { start: 0, end: 2100 }, before: 0, after: 1 });
  });

  it('never leaves out most of a short trace', () => {
    expect(focusWindow([0, 12 * S], full(0, 12 * S)).after).toBe(0);
    expect(focusWindow([0, 1, 50 * S, 51 * S], full(0, 51 * S)).window.end).toBe(51 * S);
  });
});

describe('zoom and pan', () => {
  const bounds = { start: 0, end: 10 * S };

  it('zooms around the anchor, keeping the instant under it in place', () => {
    const v = zoomAt(bounds, 0.5, 0.25, bounds);
    expect(v).toEqual({ start: 1250, end: 6250 });
    // The anchor instant (2.5 s) stays at a quarter of the width.
    expect((2500 - v.start) / (v.end - v.start)).toBeCloseTo(0.25);
  });

  it('never zooms out past the bounds nor in below 1 ms', () => {
    expect(zoomAt({ start: 2 * S, end: 8 * S }, 4, 0.5, bounds)).toEqual(bounds);
    const tiny = zoomAt({ start: 5000, end: 5002 }, 0.01, 0.5, bounds);
    expect(tiny.end - tiny.start).toBe(1);
  });

  it('pans by a share of the width and stops at the edges', () => {
    expect(panBy({ start: 2 * S, end: 4 * S }, 0.5, bounds)).toEqual({ start: 3 * S, end: 5 * S });
    expect(panBy({ start: 8 * S, end: 9 * S }, 5, bounds)).toEqual({ start: 9 * S, end: 10 * S });
    expect(panBy({ start: 1 * S, end: 2 * S }, -5, bounds)).toEqual({ start: 0, end: 1 * S });
  });

  it('turns a dragged range into a view, whichever way it was dragged', () => {
    expect(rangeOfDrag({ start: 0, end: 10 * S }, 0.6, 0.2, bounds)).toEqual({ start: 2 * S, end: 6 * S });
  });

  it('zooms to a span with a margin, and to an instant at 1 ms (the narrowest view)', () => {
    expect(rangeAround(2 * S, 3 * S, bounds)).toEqual({ start: 1900, end: 3100 });
    const instant = rangeAround(5 * S, 5 * S, bounds);
    expect(instant.end - instant.start).toBe(1);
  });

  it('clamps a view into bounds', () => {
    expect(clampView({ start: -5, end: 5 }, bounds)).toEqual({ start: 0, end: 10 });
    expect(clampView({ start: -S, end: 20 * S }, bounds)).toEqual(bounds);
  });
});

describe('viewTicks', () => {
  it('labels ticks from the trace start at round steps within the view', () => {
    const ticks = viewTicks(0, { start: 1234, end: 2234 }, 5);
    expect(ticks.map((t) => t.offset)).toEqual([1400, 1600, 1800, 2000, 2200]);
    expect(viewTicks(100, { start: 100, end: 1100 }, 5).map((t) => t.offset)).toEqual([0, 200, 400, 600, 800, 1000]);
  });
});
