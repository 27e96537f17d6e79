// Colours and formats of the insights charts. Series colours are CSS variables set on the
// page's wrapper (CHART_COLOR_VARS), one value per colour scheme, so Recharts' SVG (which
// takes colours as attributes) follows dark mode without JavaScript. Each colour meets
// 3:1 against the panel in its scheme (WCAG 1.4.11).
import type { OverviewBucket } from '@/lib/features/insights/shared';
import type { DecisionType } from '@/lib/features/traces/shared';

export const CHART_COLOR_VARS = [
  '[--ch-traces:#2563eb] dark:[--ch-traces:#60a5fa]',
  '[--ch-errors:#dc2626] dark:[--ch-errors:#f87171]',
  '[--ch-p50:#0d9488] dark:[--ch-p50:#2dd4bf]',
  '[--ch-p95:#9333ea] dark:[--ch-p95:#c084fc]',
  '[--ch-cost:#047857] dark:[--ch-cost:#34d399]',
  '[--ch-tokens:#4f46e5] dark:[--ch-tokens:#a5b4fc]',
  '[--ch-TOOL_SELECTION:#2563eb] dark:[--ch-TOOL_SELECTION:#60a5fa]',
  '[--ch-ROUTING:#0f766e] dark:[--ch-ROUTING:#2dd4bf]',
  '[--ch-RETRY:#c2410c] dark:[--ch-RETRY:#fb923c]',
  '[--ch-ESCALATION:#a21caf] dark:[--ch-ESCALATION:#e879f9]',
  '[--ch-MEMORY_RETRIEVAL:#a16207] dark:[--ch-MEMORY_RETRIEVAL:#facc15]',
  '[--ch-PLANNING:#6d28d9] dark:[--ch-PLANNING:#a78bfa]',
  '[--ch-CUSTOM:#475569] dark:[--ch-CUSTOM:#94a3b8]',
  '[--ch-score-count:#475569] dark:[--ch-score-count:#cbd5e1]',
  '[--ch-score-avg:#2563eb] dark:[--ch-score-avg:#60a5fa]',
  '[--ch-value-true:#15803d] dark:[--ch-value-true:#4ade80]',
  '[--ch-value-false:#dc2626] dark:[--ch-value-false:#f87171]',
  '[--ch-value-other:#94a3b8] dark:[--ch-value-other:#64748b]',
  '[--ch-cat0:#2563eb] dark:[--ch-cat0:#60a5fa]',
  '[--ch-cat1:#c2410c] dark:[--ch-cat1:#fb923c]',
  '[--ch-cat2:#0f766e] dark:[--ch-cat2:#2dd4bf]',
  '[--ch-cat3:#a21caf] dark:[--ch-cat3:#e879f9]',
  '[--ch-cat4:#a16207] dark:[--ch-cat4:#facc15]',
  '[--ch-cat5:#6d28d9] dark:[--ch-cat5:#a78bfa]',
  '[--ch-cat6:#be123c] dark:[--ch-cat6:#fb7185]',
  '[--ch-cat7:#047857] dark:[--ch-cat7:#34d399]',
  '[--ch-cat8:#4338ca] dark:[--ch-cat8:#a5b4fc]',
  '[--ch-cat9:#854d0e] dark:[--ch-cat9:#fcd34d]',
].join(' ');

export const color = (name: string) => `var(--ch-${name})`;
export const typeColor = (type: DecisionType) => color(type);

/** Axis, grid and tooltip styles from the app's semantic colours. */
export const AXIS_TICK = { fill: 'var(--c-muted)', fontSize: 11 };
export const GRID_STROKE = 'var(--c-border)';
export const TOOLTIP_STYLE = {
  background: 'var(--c-bg)',
  border: '1px solid var(--c-border-strong)',
  borderRadius: 6,
  color: 'var(--c-fg)',
  fontSize: 12,
};

/** A share from 0 to 1 as a percentage with at most one decimal: 0.5 → 50%, 1/3 → 33.3%. */
export function formatShare(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '—';
  return `${Math.round(share * 1000) / 10}%`;
}

/** A rate per 100 with at most one decimal: 12.5, 100, 0. */
export function formatRate(rate: number): string {
  return String(Math.round(rate * 10) / 10);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

function parts(iso: string, zone: 'UTC' | 'local') {
  const d = new Date(iso);
  return zone === 'UTC'
    ? { mo: d.getUTCMonth(), day: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes() }
    : { mo: d.getMonth(), day: d.getDate(), h: d.getHours(), mi: d.getMinutes() };
}

/** A bucket's start on an axis: `14:05` (minute), `Mar 1 14:00` or `14:00` (hour), `Mar 1` (day). */
export function bucketTick(iso: string, bucket: OverviewBucket, zone: 'UTC' | 'local'): string {
  const p = parts(iso, zone);
  const time = `${pad(p.h)}:${pad(p.mi)}`;
  if (bucket === 'day') return `${MONTHS[parts(iso, 'UTC').mo]} ${parts(iso, 'UTC').day}`;
  if (bucket === 'hour' && p.h === 0) return `${MONTHS[p.mo]} ${p.day}`;
  return time;
}

/** The window, short: `Nov 15, 20:42 – Nov 22, 20:42` (with ` UTC` before hydration). */
export function windowTitle(from: string, to: string, zone: 'UTC' | 'local'): string {
  const show = (iso: string) => {
    const p = parts(iso, zone);
    return `${MONTHS[p.mo]} ${p.day}, ${pad(p.h)}:${pad(p.mi)}`;
  };
  return `${show(from)} – ${show(to)}${zone === 'UTC' ? ' UTC' : ''}`;
}

/** Whether a bucket starts a day in the reader's zone (where long hourly axes put their ticks). */
export function startsDay(iso: string, zone: 'UTC' | 'local'): boolean {
  const p = parts(iso, zone);
  return p.h === 0 && p.mi === 0;
}

/** A bucket in full, for tooltips and tables: `Mar 1, 14:00–15:00`, `Mar 1`. */
export function bucketTitle(from: string, to: string, bucket: OverviewBucket, zone: 'UTC' | 'local'): string {
  const a = parts(from, zone);
  const b = parts(to, zone);
  const suffix = zone === 'UTC' ? ' UTC' : '';
  if (bucket === 'day') return `${MONTHS[parts(from, 'UTC').mo]} ${parts(from, 'UTC').day} (UTC day)`;
  return `${MONTHS[a.mo]} ${a.day}, ${pad(a.h)}:${pad(a.mi)}–${pad(b.h)}:${pad(b.mi)}${suffix}`;
}
