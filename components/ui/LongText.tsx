'use client';

import { useState } from 'react';
import { formatTokens } from '@/lib/core/format';

/**
 * Text that wraps, and beyond `limit` characters shows its start with "Show more".
 * Rendering a megabyte of text into the DOM is slow; the cut keeps panels fast.
 */
export function LongText({
  text,
  limit = 600,
  className = '',
  mono = false,
}: {
  text: string;
  limit?: number;
  className?: string;
  mono?: boolean;
}) {
  const [expanded, setExpanded] = useState(false);
  const long = text.length > limit;
  const shown = long && !expanded ? `${text.slice(0, limit)}…` : text;
  return (
    <div className={className}>
      <p className={`whitespace-pre-wrap break-words [overflow-wrap:anywhere] ${mono ? 'font-mono text-xs' : ''}`}>{shown}</p>
      {long && (
        <button
          type="button"
          aria-expanded={expanded}
          className="mt-1 text-xs font-medium text-accent hover:underline"
          onClick={() => setExpanded((e) => !e)}
        >
          {expanded ? 'Show less' : `Show more (${formatTokens(text.length)} characters)`}
        </button>
      )}
    </div>
  );
}
