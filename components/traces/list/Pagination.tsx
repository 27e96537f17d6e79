'use client';

import type { MouseEvent } from 'react';
import { formatTokens } from '@/lib/core/format';
import { PAGE_SIZE_CHOICES } from '@/lib/client/traces';
import type { ListParams } from '@/lib/features/traces/shared';
import { pageWindow } from './pages';

export function Pagination({
  params,
  total,
  totalPages,
  navigate,
  hrefFor,
  onPaged,
}: {
  params: ListParams;
  total: number;
  totalPages: number;
  navigate: (next: ListParams, mode?: 'push' | 'replace') => void;
  hrefFor: (next: ListParams) => string;
  onPaged?: () => void;
}) {
  const page = params.page;
  const first = total === 0 ? 0 : Math.min(total, (page - 1) * params.limit + 1);
  const last = Math.min(total, page * params.limit);
  const sizes = (PAGE_SIZE_CHOICES as readonly number[]).includes(params.limit)
    ? PAGE_SIZE_CHOICES
    : [...PAGE_SIZE_CHOICES, params.limit].sort((a, b) => a - b);

  // Real links (open in a new tab, copy), handled in place for a plain click.
  const go = (target: number) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
    e.preventDefault();
    navigate({ ...params, page: target });
    onPaged?.();
  };

  const link = (target: number, label: string, aria?: string, disabled = false) =>
    disabled ? (
      <span aria-disabled="true" className="inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-muted opacity-60">
        {label}
      </span>
    ) : (
      <a
        href={hrefFor({ ...params, page: target })}
        onClick={go(target)}
        aria-label={aria}
        aria-current={target === page ? 'page' : undefined}
        className={`inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 tabular ${
          target === page ? 'bg-accent font-semibold text-bg' : 'text-fg hover:bg-surface-2'
        }`}
      >
        {label}
      </a>
    );

  return (
    <div className="flex flex-wrap items-center justify-between gap-3 py-3">
      <p className="text-sm text-muted tabular" aria-live="polite">
        {total === 0
          ? 'No traces'
          : `Showing ${formatTokens(first)}–${formatTokens(last)} of ${formatTokens(total)} ${total === 1 ? 'trace' : 'traces'}`}
      </p>
      <nav aria-label="Pages" className="flex items-center gap-1">
        {link(page - 1, '‹ Prev', 'Previous page', page <= 1)}
        {pageWindow(page, Math.max(totalPages, 1)).map((p, i) =>
          p === null ? (
            <span key={`gap-${i}`} aria-hidden="true" className="px-1 text-muted">
              …
            </span>
          ) : (
            <span key={p}>{link(p, String(p), `Page ${p}`)}</span>
          ),
        )}
        {link(page + 1, 'Next ›', 'Next page', page >= totalPages)}
      </nav>
      <div className="flex items-center gap-2">
        <label htmlFor="page-size" className="text-sm text-muted">
          Rows per page
        </label>
        <select
          id="page-size"
          value={params.limit}
          onChange={(e) => {
            // Keep the first visible row on screen when the page size changes.
            const limit = Number(e.target.value);
            const firstIndex = (params.page - 1) * params.limit;
            navigate({ ...params, limit, page: Math.floor(firstIndex / limit) + 1 });
          }}
          className="h-8 rounded-md border border-border-strong bg-bg px-2 text-sm text-fg"
        >
          {sizes.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
