'use client';

import Link from 'next/link';
import { useEffect } from 'react';
import { ErrorState } from '@/components/ui/states';

// Server failures of the page (database unreachable, a bug): say so, offer a retry.
export default function InsightsError({ error, retry }: { error: unknown; retry: () => void }) {
  useEffect(() => {
    // The browser console is where an operator looks first; the digest matches the server log.
    console.warn('Insights page failed to render', error);
  }, [error]);
  const digest = error instanceof Error && 'digest' in error ? String((error as Error & { digest?: string }).digest) : null;
  return (
    <div className="mx-auto max-w-2xl py-10">
      <ErrorState
        title="Something went wrong loading the insights"
        message="The server could not compute the figures. This is usually temporary (for example the database is restarting)."
        onRetry={retry}
      >
        {digest && <p className="mt-2 text-xs text-red-900 dark:text-red-200">Reference: {digest}</p>}
        <Link href="/traces" className="mt-3 mr-4 inline-block text-sm font-medium text-red-900 underline dark:text-red-100">
          Go to the traces
        </Link>
      </ErrorState>
    </div>
  );
}
