'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { formatTokens } from '@/lib/core/format';
import { writeListFilters } from '@/lib/client/list-filters';
import { traceQueries } from '@/lib/client/traces';
import type { TraceFilterParams } from '@/lib/features/traces/shared';
import { useListUrl } from './useListUrl';

const CHOICES = [
  { format: 'ndjson', children: false, label: 'NDJSON', detail: 'One trace per line, as the list shows it' },
  { format: 'csv', children: false, label: 'CSV', detail: 'A spreadsheet: one row per trace' },
  { format: 'ndjson', children: true, label: 'NDJSON with children', detail: 'Full traces: decisions, spans, events' },
] as const;

/** The export of every trace the filters match (never one page: paging and sort are left out). */
export function exportHref(filters: TraceFilterParams, format: 'ndjson' | 'csv', children: boolean): string {
  const q = new URLSearchParams({ format });
  if (children) q.set('include', 'children');
  writeListFilters(q, filters);
  return `/api/traces/export?${q.toString()}`;
}

/**
 * "Export" menu button (the WAI-ARIA menu button pattern): each item is a link that the
 * browser downloads as it streams, however large, for the filters in the page's URL.
 */
export function ExportMenu() {
  const { params, problem } = useListUrl();
  // The list's own query (same key, so no second request): its total says how much goes.
  const list = useQuery({ ...traceQueries.list(params), enabled: problem === null });
  const total = list.data?.total;
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLAnchorElement>('[role="menuitem"]') ?? []);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const onMenuKey = (e: KeyboardEvent) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLAnchorElement);
    const move = (i: number) => {
      e.preventDefault();
      list[(i + list.length) % list.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(list.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'Tab') setOpen(false);
  };

  const disabled = problem !== null;
  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        title={disabled ? 'Fix the filters in the link first' : 'Download every trace that matches the filters'}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
        className="inline-flex h-8 items-center gap-1.5 rounded-md border border-border-strong bg-bg px-2.5 text-sm font-medium text-fg hover:bg-surface-2 disabled:cursor-not-allowed disabled:opacity-50"
      >
        <svg aria-hidden="true" width="14" height="14" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5">
          <path d="M8 2v8m0 0L5 7m3 3 3-3M3 12.5V14h10v-1.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        Export
        <svg aria-hidden="true" width="10" height="10" viewBox="0 0 10 10" fill="none" stroke="currentColor" strokeWidth="1.5">
          <path d="m2 3.5 3 3 3-3" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label="Export traces"
          onKeyDown={onMenuKey}
          className="absolute right-0 z-20 mt-1 w-72 rounded-lg border border-border bg-bg p-1 shadow-lg"
        >
          <p className="px-2.5 pt-1.5 pb-1 text-xs text-muted" role="presentation">
            {total === undefined
              ? 'Every trace that matches the current filters'
              : total === 1
                ? 'The 1 trace that matches the current filters'
                : `All ${formatTokens(total)} traces that match the current filters`}
          </p>
          {CHOICES.map((choice) => (
            <a
              key={choice.label}
              role="menuitem"
              tabIndex={-1}
              href={exportHref(params, choice.format, choice.children)}
              download
              onClick={() => close(true)}
              className="flex flex-col rounded-md px-2.5 py-1.5 text-sm text-fg outline-none hover:bg-surface-2 focus:bg-surface-2"
            >
              <span className="font-medium">{choice.label}</span>
              <span className="text-xs text-muted">{choice.detail}</span>
            </a>
          ))}
        </div>
      )}
    </div>
  );
}
