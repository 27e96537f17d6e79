import Link from 'next/link';
import type { ReactNode } from 'react';

/** One headline figure of the window; the whole tile opens the traces behind it. */
export function Tile({ label, value, detail, href, testId }: { label: string; value: string; detail?: ReactNode; href: string; testId?: string }) {
  return (
    <Link
      href={href}
      data-testid={testId}
      className="group flex min-w-0 flex-col rounded-lg border border-border bg-surface px-4 py-3 hover:border-accent"
    >
      <span className="text-xs font-medium text-muted">{label}</span>
      <span className="mt-0.5 text-2xl font-semibold tracking-tight tabular text-fg group-hover:text-accent">{value}</span>
      {detail && <span className="mt-0.5 truncate text-xs text-muted">{detail}</span>}
    </Link>
  );
}
