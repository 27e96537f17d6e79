// Where a full-text search term occurs in a loaded trace, for the detail page opened from
// a search (`?q=`): the same fields, order and case-insensitive substring rule as the
// server's search (lib/traces/search-sql.ts), computed on the trace the page already has.
import { needleIn, searchNeedles } from '@/lib/traces/search-needles';
import type { JsonValue, TraceDetail } from '@/lib/traces/types';

export interface FoundMatch {
  kind: 'trace' | 'span' | 'decision' | 'event';
  id: string;
  /** The span's, decision's or event's name as the page shows it. */
  label: string;
  field: string;
  text: string;
}

function textOf(value: JsonValue | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Every place `q` occurs: the trace's name and metadata, then spans by start time,
 * decision points and events by time, each one's fields in the server's order. JSON
 * fields are searched in their JSON text (so a value inside an object is found), and
 * in the JSON-escaped form of the term too (a quote typed by the user is \" there).
 */
export function findSearchMatches(trace: TraceDetail, q: string): FoundMatch[] {
  if (searchNeedles(q).every((n) => n === '')) return [];
  const found: FoundMatch[] = [];
  const look = (kind: FoundMatch['kind'], id: string, label: string, fields: Array<[string, JsonValue | string | null | undefined]>) => {
    for (const [field, value] of fields) {
      // Plain text fields hold the term as typed; JSON-valued fields are JSON text.
      const text = typeof value === 'string' && (field === 'name' || field === 'reasoning' || field === 'statusMessage') ? value : textOf(value);
      if (text === null) continue;
      if (needleIn(text.toLowerCase(), q) !== undefined) found.push({ kind, id, label, field, text });
    }
  };
  look('trace', trace.id, trace.name, [
    ['name', trace.name],
    ['metadata', trace.metadata],
  ]);
  const byTime = <T,>(items: T[], at: (item: T) => string) => [...items].sort((a, b) => at(a).localeCompare(at(b)));
  for (const s of byTime(trace.spans, (s) => s.startedAt)) {
    look('span', s.id, s.name, [
      ['name', s.name],
      ['input', s.input],
      ['output', s.output],
      ['statusMessage', s.statusMessage],
      ['metadata', s.metadata],
    ]);
  }
  for (const d of byTime(trace.decisionPoints, (d) => d.timestamp)) {
    look('decision', d.id, d.type, [
      ['reasoning', d.reasoning],
      ['chosen', d.chosen],
      ['alternatives', d.alternatives],
    ]);
  }
  for (const e of byTime(trace.events, (e) => e.timestamp)) {
    look('event', e.id, e.name, [
      ['name', e.name],
      ['metadata', e.metadata],
    ]);
  }
  return found;
}

/** A window of `text` around the first occurrence of `q`, with "…" where it was cut. */
export function snippetAround(text: string, q: string, before = 40, after = 80): string {
  const lower = text.toLowerCase();
  const needle = needleIn(lower, q);
  const at = needle === undefined ? 0 : lower.indexOf(needle);
  const start = Math.max(0, at - before);
  const end = Math.min(text.length, at + (needle?.length ?? 0) + after);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
