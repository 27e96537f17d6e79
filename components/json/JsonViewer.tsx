'use client';

import { memo, useMemo, useState } from 'react';
import type { JsonValue } from '@/lib/core/json';
import { formatBytes, formatTokens } from '@/lib/core/format';
import { CopyButton } from '@/components/ui/CopyButton';
import { LongText } from '@/components/ui/LongText';
import { chunkRanges, jsonSize, previewJson } from './json';

// A collapsible JSON tree that stays fast on megabyte payloads: children are built
// only when their node is opened, big arrays and objects open as ranges of at most
// 100 entries, long strings are cut with "show more", and the raw text view renders
// at most RAW_LIMIT characters until asked for all.
const STRING_LIMIT = 240;
const RAW_LIMIT = 100_000;

type Container = JsonValue[] | { [key: string]: JsonValue };

function isContainer(v: JsonValue): v is Container {
  return typeof v === 'object' && v !== null;
}

function Primitive({ value }: { value: Exclude<JsonValue, Container> }) {
  const [open, setOpen] = useState(false);
  if (value === null) return <span className="text-violet-700 dark:text-violet-300">null</span>;
  if (typeof value === 'boolean') return <span className="text-violet-700 dark:text-violet-300">{String(value)}</span>;
  if (typeof value === 'number') return <span className="text-blue-700 dark:text-sky-300">{String(value)}</span>;
  const long = value.length > STRING_LIMIT;
  return (
    <span className="whitespace-pre-wrap text-emerald-800 [overflow-wrap:anywhere] dark:text-emerald-300">
      “{long && !open ? `${value.slice(0, STRING_LIMIT)}…` : value}”
      {long && (
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          className="ml-1 rounded px-1 font-sans text-[11px] font-medium text-accent hover:underline"
        >
          {open ? 'show less' : `show more (${formatTokens(value.length)} chars)`}
        </button>
      )}
    </span>
  );
}

function KeyLabel({ name }: { name: string | number | null }) {
  if (name === null) return null;
  return (
    <>
      <span className={typeof name === 'number' ? 'text-muted' : 'text-fg'}>{typeof name === 'number' ? name : `${name}`}</span>
      <span className="text-muted">: </span>
    </>
  );
}

const ContainerNode = memo(function ContainerNode({
  name,
  value,
  depth,
  openDepth,
}: {
  name: string | number | null;
  value: Container;
  depth: number;
  openDepth: number;
}) {
  const [open, setOpen] = useState(depth < openDepth);
  const isArray = Array.isArray(value);
  const size = isArray ? value.length : Object.keys(value).length;
  const brackets = isArray ? ['[', ']'] : ['{', '}'];
  if (size === 0) {
    return (
      <div className="pl-4">
        <KeyLabel name={name} />
        <span className="text-muted">{brackets.join('')}</span>
      </div>
    );
  }
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="group flex w-full items-start rounded text-left hover:bg-surface-2"
      >
        <span aria-hidden="true" className={`inline-block w-4 shrink-0 text-center text-muted transition-transform ${open ? 'rotate-90' : ''}`}>
          ▸
        </span>
        <span className="min-w-0">
          <KeyLabel name={name} />
          {/* Closed, the preview carries its own brackets: {a: 1, …}. */}
          <span className="text-muted">{open ? brackets[0] : previewJson(value, 60)}</span>
          <span className="ml-2 font-sans text-[11px] text-muted">
            {formatTokens(size)} {isArray ? (size === 1 ? 'item' : 'items') : size === 1 ? 'key' : 'keys'}
          </span>
        </span>
      </button>
      {open && (
        <div className="ml-[7px] border-l border-border pl-1">
          <Entries value={value} depth={depth + 1} openDepth={openDepth} start={0} end={size} />
        </div>
      )}
      {open && <div className="pl-4 text-muted">{brackets[1]}</div>}
    </div>
  );
});

/** Entries [start, end) of a container, as ranges when there are too many. */
function Entries({
  value,
  depth,
  openDepth,
  start,
  end,
}: {
  value: Container;
  depth: number;
  openDepth: number;
  start: number;
  end: number;
}) {
  const keys = useMemo(() => (Array.isArray(value) ? null : Object.keys(value)), [value]);
  const ranges = chunkRanges(start, end);
  if (ranges) {
    return (
      <>
        {ranges.map(([a, b]) => (
          <RangeNode key={a} value={value} depth={depth} openDepth={openDepth} start={a} end={b} keys={keys} />
        ))}
      </>
    );
  }
  const items = [];
  for (let i = start; i < end; i++) {
    const name = keys ? keys[i] : i;
    const child = keys ? (value as Record<string, JsonValue>)[keys[i]] : (value as JsonValue[])[i];
    items.push(<Node key={keys ? `k:${keys[i]}` : i} name={name} value={child} depth={depth} openDepth={openDepth} />);
  }
  return <>{items}</>;
}

function RangeNode({
  value,
  depth,
  openDepth,
  start,
  end,
  keys,
}: {
  value: Container;
  depth: number;
  openDepth: number;
  start: number;
  end: number;
  keys: string[] | null;
}) {
  const [open, setOpen] = useState(false);
  const label = keys ? `${keys[start]} … ${keys[end - 1]}` : `[${start} … ${end - 1}]`;
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-start rounded text-left text-muted hover:bg-surface-2"
      >
        <span aria-hidden="true" className={`inline-block w-4 shrink-0 text-center transition-transform ${open ? 'rotate-90' : ''}`}>
          ▸
        </span>
        <span className="truncate">{label}</span>
        <span className="ml-2 shrink-0 font-sans text-[11px]">{formatTokens(end - start)} entries</span>
      </button>
      {open && (
        <div className="ml-[7px] border-l border-border pl-1">
          <Entries value={value} depth={depth} openDepth={openDepth} start={start} end={end} />
        </div>
      )}
    </div>
  );
}

function Node({
  name,
  value,
  depth,
  openDepth,
}: {
  name: string | number | null;
  value: JsonValue;
  depth: number;
  openDepth: number;
}) {
  if (isContainer(value)) return <ContainerNode name={name} value={value} depth={depth} openDepth={openDepth} />;
  return (
    <div className="pl-4">
      <KeyLabel name={name} />
      <Primitive value={value} />
    </div>
  );
}

function RawView({ value }: { value: JsonValue }) {
  const [all, setAll] = useState(false);
  const text = useMemo(() => JSON.stringify(value, null, 2) ?? 'null', [value]);
  const cut = !all && text.length > RAW_LIMIT;
  return (
    <div>
      <pre className="whitespace-pre-wrap break-all">{cut ? `${text.slice(0, RAW_LIMIT)}\n…` : text}</pre>
      {text.length > RAW_LIMIT && (
        <button
          type="button"
          onClick={() => setAll((a) => !a)}
          className="mt-1 font-sans text-xs font-medium text-accent hover:underline"
        >
          {all ? 'Show less' : `Show all (${formatBytes(text.length)})`}
        </button>
      )}
    </div>
  );
}

/**
 * A labelled JSON value with copy and a tree/raw switch. `openDepth` levels start
 * open (1: the top level's entries are listed, their own children closed).
 */
export function JsonViewer({
  value,
  label,
  openDepth = 1,
  tone = 'plain',
  emptyNote = 'not recorded',
}: {
  value: JsonValue | undefined;
  label: string;
  openDepth?: number;
  tone?: 'plain' | 'chosen' | 'muted';
  emptyNote?: string;
}) {
  const [mode, setMode] = useState<'tree' | 'raw'>('tree');
  const v: JsonValue = value === undefined ? null : value;
  const size = useMemo(() => jsonSize(v), [v]);
  const frame =
    tone === 'chosen'
      ? 'border-emerald-600/60 bg-emerald-50/60 dark:border-emerald-400/50 dark:bg-emerald-950/30'
      : 'border-border bg-surface';

  return (
    <section aria-label={label} className={`rounded-md border ${frame}`}>
      <div className="flex items-center gap-2 border-b border-border px-2 py-1">
        <h4 className="text-xs font-semibold text-fg">{label}</h4>
        <span className="text-[11px] text-muted">{v === null ? emptyNote : formatBytes(size)}</span>
        {v !== null && (
          <div className="ml-auto flex items-center gap-1">
            {isContainer(v) && (
              <button
                type="button"
                aria-pressed={mode === 'raw'}
                onClick={() => setMode((m) => (m === 'tree' ? 'raw' : 'tree'))}
                className="rounded border border-border px-1.5 py-0.5 text-xs text-muted hover:bg-surface-2 hover:text-fg"
              >
                {mode === 'tree' ? 'Raw' : 'Tree'}
              </button>
            )}
            <CopyButton
              label="Copy"
              getText={() => (typeof v === 'string' ? v : (JSON.stringify(v, null, 2) ?? 'null'))}
            />
          </div>
        )}
      </div>
      {v !== null && (
        <div className="max-h-[28rem] overflow-auto px-1 py-1.5 font-mono text-xs leading-5">
          {typeof v === 'string' ? (
            <LongText text={v} limit={1200} className="px-2 font-sans text-sm leading-6" />
          ) : mode === 'raw' ? (
            <div className="px-2">
              <RawView value={v} />
            </div>
          ) : isContainer(v) ? (
            <ContainerNode name={null} value={v} depth={0} openDepth={openDepth} />
          ) : (
            <div className="px-2">
              <Primitive value={v} />
            </div>
          )}
        </div>
      )}
    </section>
  );
}
