'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { traceQueries } from '@/lib/client/traces';

/** `trace-<id>.json`, the id kept to characters every file system accepts. */
export function traceFilename(id: string): string {
  return `trace-${id.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100)}.json`;
}

/** The response's text; a failure carries the API's `{error}` message. */
async function fetchText(url: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' } });
  } catch (err) {
    throw new Error('Could not reach the server. Check your connection and try again.', { cause: err });
  }
  if (!res.ok) {
    let message = `HTTP ${res.status}`;
    try {
      const body = (await res.json()) as { error?: unknown };
      if (typeof body.error === 'string' && body.error) message = body.error;
    } catch {
      // Not JSON (a proxy's error page): keep the status.
    }
    throw new Error(message);
  }
  return res.text();
}

function save(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has started from the object URL by now; give slow browsers a moment.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads the full trace as GET /api/traces/{id} returns it (`{"trace": {...}}`),
 * fetched afresh so the file has the server's exact text (numbers with every digit
 * written), not the page's parsed copy.
 */
export function DownloadJsonButton({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const [error, setError] = useState('');

  useEffect(() => {
    if (state !== 'failed') return;
    const t = setTimeout(() => setState('idle'), 6000);
    return () => clearTimeout(t);
  }, [state]);

  const download = async () => {
    setState('busy');
    try {
      let text: string;
      if (id === 'export') {
        // GET /api/traces/export is the export route, which shadows a trace of that id:
        // its file is written from the copy the page holds.
        text = JSON.stringify({ trace: queryClient.getQueryData(traceQueries.detail(id).queryKey) });
      } else {
        text = await fetchText(`/api/traces/${encodeURIComponent(id)}`);
      }
      save(new Blob([text], { type: 'application/json' }), traceFilename(id));
      setState('idle');
    } catch (err) {
      setError((err as Error).message);
      setState('failed');
    }
  };

  return (
    <>
      <button
        type="button"
        onClick={() => void download()}
        disabled={state === 'busy'}
        aria-busy={state === 'busy'}
        title="Download the whole trace (decision points, spans, events) as JSON"
        className="inline-flex items-center gap-1 rounded border border-border px-1.5 py-0.5 text-xs text-muted hover:bg-surface-2 hover:text-fg disabled:opacity-60"
      >
        <svg aria-hidden="true" width="12" height="12" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5">
          <path d="M8 2v8m0 0L5 7m3 3 3-3M3 12.5V14h10v-1.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        {state === 'busy' ? 'Preparing…' : 'Download JSON'}
      </button>
      <span role="status" className="text-xs text-red-800 dark:text-red-200">
        {state === 'failed' ? `Download failed: ${error}` : ''}
      </span>
    </>
  );
}
