// Display formatting shared by server and client components. Every function is pure
// and takes its clock and time zone as arguments: the same input gives the same text
// on the server and in the browser, so hydration never sees a difference.

const EMPTY = '—';

function isNum(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function trimZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** A duration in milliseconds: `850 ms`, `1.25 s`, `2m 05s`, `1h 02m`, `3d 04h`. */
export function formatDuration(ms: number | null | undefined): string {
  if (!isNum(ms)) return EMPTY;
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (ms === 0) return '0 ms';
  if (ms < 1) return `${trimZeros(ms.toFixed(2))} ms`;
  if (ms < 10) return `${trimZeros(ms.toFixed(1))} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 10) return `${trimZeros(s.toFixed(2))} s`;
  if (s < 60) return `${trimZeros(s.toFixed(1))} s`;
  const totalSeconds = Math.round(s);
  if (totalSeconds < 3600) {
    const m = Math.floor(totalSeconds / 60);
    return `${m}m ${String(totalSeconds % 60).padStart(2, '0')}s`;
  }
  const totalMinutes = Math.round(totalSeconds / 60);
  if (totalMinutes < 24 * 60) {
    const h = Math.floor(totalMinutes / 60);
    return `${h}h ${String(totalMinutes % 60).padStart(2, '0')}m`;
  }
  const totalHours = Math.round(totalMinutes / 60);
  return `${Math.floor(totalHours / 24)}d ${String(totalHours % 24).padStart(2, '0')}h`;
}

/** A position on a timeline, relative to the trace start: `+0 ms`, `+1.25 s`. */
export function formatOffset(ms: number | null | undefined): string {
  if (!isNum(ms)) return EMPTY;
  return ms < 0 ? formatDuration(ms) : `+${formatDuration(ms)}`;
}

/** Decimals that write `step` exactly (at most 6): 0.25 → 2, 5 → 0. */
function decimalsOf(step: number): number {
  for (let d = 0; d < 6; d++) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, scaled)) return d;
  }
  return 6;
}

/**
 * A timeline axis label `ms` from the trace start, on ticks `stepMs` apart: as
 * formatDuration, but with the decimals the step needs, so that neighbouring ticks of a
 * zoomed axis read apart (`12.001 s`, `12.002 s`, where formatDuration gives `12 s` twice).
 */
export function formatTick(ms: number | null | undefined, stepMs: number): string {
  if (!isNum(ms)) return EMPTY;
  if (!(stepMs > 0) || !Number.isFinite(stepMs)) return formatDuration(ms);
  if (ms < 0) return `-${formatTick(-ms, stepMs)}`;
  if (ms === 0) return '0 ms';
  if (ms < 1000 && stepMs < 1000) return `${ms.toFixed(decimalsOf(stepMs))} ms`;
  if (ms < 60_000) return stepMs < 10_000 ? `${(ms / 1000).toFixed(decimalsOf(stepMs / 1000))} s` : formatDuration(ms);
  if (ms < 3_600_000 && stepMs < 60_000) {
    const d = decimalsOf(stepMs / 1000);
    const minutes = Math.floor(ms / 60_000);
    const seconds = ((ms - minutes * 60_000) / 1000).toFixed(d);
    return `${minutes}m ${seconds.padStart(d ? d + 3 : 2, '0')}s`;
  }
  return formatDuration(ms);
}

/** A position on a zoomed timeline (see formatTick): `+12.001 s`. */
export function formatTickOffset(ms: number | null | undefined, stepMs: number): string {
  if (!isNum(ms)) return EMPTY;
  return ms < 0 ? formatTick(ms, stepMs) : `+${formatTick(ms, stepMs)}`;
}

const usd2 = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/**
 * US dollars. Agent costs are often fractions of a cent, so small amounts keep
 * four significant digits: `$0.00042`, `$0.0123`, `$1.50`, `$12,345.68`.
 */
export function formatCost(usd: number | null | undefined): string {
  if (!isNum(usd)) return EMPTY;
  if (usd < 0) return `-${formatCost(-usd)}`;
  if (usd === 0) return '$0';
  if (usd < 0.000001) return '<$0.000001';
  if (usd < 1) {
    // Three significant digits, at least two decimals: $0.50, $0.0123, $0.00042.
    const digits = Math.max(2, 2 - Math.floor(Math.log10(usd)));
    const [whole, frac = ''] = trimZeros(usd.toFixed(digits)).split('.');
    return `$${whole}.${frac.padEnd(2, '0')}`;
  }
  return usd2.format(usd);
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A token count with thousands separators: `12,345`. */
export function formatTokens(n: number | null | undefined): string {
  if (!isNum(n)) return EMPTY;
  return grouped.format(n);
}

/** Short count for tight places: `950`, `12.3k`, `4.5M`. */
export function formatCompact(n: number | null | undefined): string {
  if (!isNum(n)) return EMPTY;
  const abs = Math.abs(n);
  if (abs < 1000) return grouped.format(n);
  if (abs < 1_000_000) return `${trimZeros((n / 1000).toFixed(abs < 10_000 ? 1 : 0))}k`;
  if (abs < 1_000_000_000) return `${trimZeros((n / 1_000_000).toFixed(1))}M`;
  return `${trimZeros((n / 1_000_000_000).toFixed(1))}B`;
}

/** Bytes as `512 B`, `1.5 KB`, `1.0 MB` (base 1024). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Milliseconds since the epoch, or null for a missing or unparsable date. */
export function toMillis(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/**
 * An exact instant: `2026-11-21 10:02:03.123 UTC`. `timeZone` is 'UTC' or 'local';
 * the server and the first (hydrating) client render use UTC, later renders the
 * reader's own zone, shown as its offset (`UTC+01:00`).
 */
export function formatDateTime(iso: string | null | undefined, timeZone: 'UTC' | 'local' = 'UTC'): string {
  const t = toMillis(iso);
  if (t === null) return EMPTY;
  const d = new Date(t);
  if (timeZone === 'UTC') {
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(
      d.getUTCMinutes(),
    )}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)} UTC`;
  }
  const offset = -d.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const zone = offset === 0 ? 'UTC' : `UTC${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(
    d.getSeconds(),
  )}.${pad(d.getMilliseconds(), 3)} ${zone}`;
}

/**
 * The hover text of a shown instant: the exact instant in the zone shown, and in UTC
 * when that differs (`2026-11-21 11:02:03.045 UTC+01:00 (2026-11-21 10:02:03.045 UTC)`).
 */
export function exactTitle(iso: string | null | undefined, timeZone: 'UTC' | 'local' = 'UTC'): string {
  const shown = formatDateTime(iso, timeZone);
  const utc = formatDateTime(iso, 'UTC');
  return shown === utc ? utc : `${shown} (${utc})`;
}

/** A calendar date for old timestamps: `Nov 3, 2026`. */
export function formatDate(iso: string | null | undefined, timeZone: 'UTC' | 'local' = 'UTC'): string {
  const t = toMillis(iso);
  if (t === null) return EMPTY;
  const d = new Date(t);
  return timeZone === 'UTC'
    ? `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`
    : `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`;
}

/**
 * How long ago, relative to `now` (ms since epoch): `just now`, `45s ago`,
 * `12m ago`, `3h ago`, `5d ago`, then the date. Small clock skew (a start a few
 * seconds in the future) reads as `just now`.
 */
export function formatRelative(iso: string | null | undefined, now: number, timeZone: 'UTC' | 'local' = 'UTC'): string {
  const t = toMillis(iso);
  if (t === null) return EMPTY;
  const diff = now - t;
  if (diff < -60_000) return `in ${formatDuration(-diff)}`;
  if (diff < 5_000) return 'just now';
  const s = Math.floor(diff / 1000);
  if (s < 60) return `${s}s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ago`;
  const d = Math.floor(h / 24);
  if (d < 30) return `${d}d ago`;
  return formatDate(iso, timeZone);
}

/** `1 span`, `2 spans`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${grouped.format(n)} ${n === 1 ? one : many}`;
}

/** ENUM_VALUE → `Enum value`, for types and statuses shown as words. */
export function humanizeEnum(value: string): string {
  const lower = value.toLowerCase().replace(/_/g, ' ');
  return lower.charAt(0).toUpperCase() + lower.slice(1);
}
