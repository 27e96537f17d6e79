// Status and type labels. Colour is never the only signal: every badge carries its
// text (or an icon with a text alternative). Text/background pairs meet WCAG AA in
// both colour schemes.
import type { DecisionType, EventType, RunStatus, SpanType } from '@/lib/features/traces/shared';

const STATUS_STYLE: Record<RunStatus, string> = {
  RUNNING: 'bg-blue-50 text-blue-800 ring-blue-600/30 dark:bg-blue-950 dark:text-blue-200 dark:ring-blue-400/40',
  COMPLETED:
    'bg-emerald-50 text-emerald-800 ring-emerald-600/30 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-400/40',
  ERROR: 'bg-red-50 text-red-800 ring-red-600/30 dark:bg-red-950 dark:text-red-200 dark:ring-red-400/40',
};

const STATUS_LABEL: Record<RunStatus, string> = { RUNNING: 'Running', COMPLETED: 'Completed', ERROR: 'Error' };

export function StatusIcon({ status, className = '' }: { status: RunStatus; className?: string }) {
  if (status === 'RUNNING') {
    return (
      <span aria-hidden="true" className={`relative inline-flex h-2 w-2 ${className}`}>
        <span className="absolute inline-flex h-full w-full rounded-full bg-blue-500 opacity-60 motion-safe:animate-ping" />
        <span className="relative inline-flex h-2 w-2 rounded-full bg-blue-600 dark:bg-blue-400" />
      </span>
    );
  }
  if (status === 'ERROR') {
    return (
      <svg aria-hidden="true" width="12" height="12" viewBox="0 0 12 12" className={`shrink-0 ${className}`}>
        <circle cx="6" cy="6" r="6" className="fill-red-600 dark:fill-red-400" />
        <path d="M4 4l4 4M8 4l-4 4" className="stroke-white dark:stroke-red-950" strokeWidth="1.6" strokeLinecap="round" />
      </svg>
    );
  }
  return (
    <svg aria-hidden="true" width="12" height="12" viewBox="0 0 12 12" className={`shrink-0 ${className}`}>
      <circle cx="6" cy="6" r="6" className="fill-emerald-600 dark:fill-emerald-400" />
      <path d="M3.5 6.2l1.7 1.7 3.4-3.6" className="stroke-white dark:stroke-emerald-950" strokeWidth="1.6" fill="none" strokeLinecap="round" />
    </svg>
  );
}

export function StatusBadge({ status, className = '' }: { status: RunStatus; className?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${STATUS_STYLE[status]} ${className}`}
    >
      <StatusIcon status={status} />
      {STATUS_LABEL[status]}
    </span>
  );
}

export const statusLabel = (s: RunStatus) => STATUS_LABEL[s];

// Span types: a short label on a tinted chip, and a bar colour for the waterfall
// (bars meet 3:1 against the surface, WCAG 1.4.11).
export const SPAN_TYPE_META: Record<SpanType, { short: string; label: string; chip: string; bar: string }> = {
  LLM_CALL: {
    short: 'LLM',
    label: 'LLM call',
    chip: 'bg-violet-50 text-violet-800 dark:bg-violet-950 dark:text-violet-200',
    bar: 'bg-violet-500 dark:bg-violet-400',
  },
  TOOL_CALL: {
    short: 'TOOL',
    label: 'Tool call',
    chip: 'bg-sky-50 text-sky-800 dark:bg-sky-950 dark:text-sky-200',
    bar: 'bg-sky-600 dark:bg-sky-400',
  },
  MEMORY_OP: {
    short: 'MEM',
    label: 'Memory operation',
    chip: 'bg-amber-50 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
    bar: 'bg-amber-600 dark:bg-amber-400',
  },
  CHAIN: {
    short: 'CHAIN',
    label: 'Chain',
    chip: 'bg-teal-50 text-teal-800 dark:bg-teal-950 dark:text-teal-200',
    bar: 'bg-teal-600 dark:bg-teal-400',
  },
  AGENT: {
    short: 'AGENT',
    label: 'Agent',
    chip: 'bg-indigo-50 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200',
    bar: 'bg-indigo-600 dark:bg-indigo-400',
  },
  CUSTOM: {
    short: 'CUSTOM',
    label: 'Custom',
    chip: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200',
    bar: 'bg-slate-500 dark:bg-slate-400',
  },
};

export function SpanTypeBadge({ type, className = '' }: { type: SpanType; className?: string }) {
  const meta = SPAN_TYPE_META[type];
  return (
    <span
      title={meta.label}
      className={`inline-flex w-12 shrink-0 justify-center rounded px-1 py-px font-mono text-[10px] font-semibold tracking-wide ${meta.chip} ${className}`}
    >
      {meta.short}
    </span>
  );
}

export const DECISION_LABEL: Record<DecisionType, string> = {
  TOOL_SELECTION: 'Tool selection',
  ROUTING: 'Routing',
  RETRY: 'Retry',
  ESCALATION: 'Escalation',
  MEMORY_RETRIEVAL: 'Memory retrieval',
  PLANNING: 'Planning',
  CUSTOM: 'Custom',
};

/** The diamond that marks a decision point everywhere in the viewer. */
export function DecisionGlyph({ className = '', size = 12 }: { className?: string; size?: number }) {
  return (
    <svg aria-hidden="true" width={size} height={size} viewBox="0 0 12 12" className={`shrink-0 ${className}`}>
      <path d="M6 0.8L11.2 6 6 11.2 0.8 6z" className="fill-fuchsia-600 dark:fill-fuchsia-400" />
    </svg>
  );
}

export function DecisionTypeBadge({ type, className = '' }: { type: DecisionType; className?: string }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded bg-fuchsia-50 px-1.5 py-px text-xs font-medium text-fuchsia-900 dark:bg-fuchsia-950 dark:text-fuchsia-200 ${className}`}
    >
      <DecisionGlyph size={10} />
      {DECISION_LABEL[type]}
    </span>
  );
}

export const EVENT_META: Record<EventType, { label: string; chip: string; marker: string }> = {
  ERROR: {
    label: 'Error',
    chip: 'bg-red-50 text-red-800 dark:bg-red-950 dark:text-red-200',
    marker: 'bg-red-600 dark:bg-red-400',
  },
  RETRY: {
    label: 'Retry',
    chip: 'bg-orange-50 text-orange-900 dark:bg-orange-950 dark:text-orange-200',
    marker: 'bg-orange-600 dark:bg-orange-400',
  },
  FALLBACK: {
    label: 'Fallback',
    chip: 'bg-yellow-50 text-yellow-900 dark:bg-yellow-950 dark:text-yellow-200',
    marker: 'bg-yellow-600 dark:bg-yellow-400',
  },
  CONTEXT_OVERFLOW: {
    label: 'Context overflow',
    chip: 'bg-rose-50 text-rose-900 dark:bg-rose-950 dark:text-rose-200',
    marker: 'bg-rose-600 dark:bg-rose-400',
  },
  USER_FEEDBACK: {
    label: 'User feedback',
    chip: 'bg-cyan-50 text-cyan-900 dark:bg-cyan-950 dark:text-cyan-200',
    marker: 'bg-cyan-600 dark:bg-cyan-400',
  },
  CUSTOM: {
    label: 'Custom',
    chip: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200',
    marker: 'bg-slate-600 dark:bg-slate-300',
  },
};

export function EventTypeBadge({ type, className = '' }: { type: EventType; className?: string }) {
  const meta = EVENT_META[type];
  return (
    <span className={`inline-flex items-center gap-1 rounded px-1.5 py-px text-xs font-medium ${meta.chip} ${className}`}>
      <span aria-hidden="true" className={`inline-block h-2 w-2 rotate-45 ${meta.marker}`} />
      {meta.label}
    </span>
  );
}

export function Tag({ children, className = '' }: { children: string; className?: string }) {
  return (
    <span
      className={`inline-block max-w-full truncate rounded border border-border bg-surface-2 px-1.5 py-px text-xs text-fg ${className}`}
      title={children}
    >
      {children}
    </span>
  );
}
