import type { ReactNode } from 'react';

/** A failure with a way out: what went wrong, and a retry. */
export function ErrorState({
  title,
  message,
  onRetry,
  retrying = false,
  children,
}: {
  title: string;
  message?: string;
  onRetry?: () => void;
  retrying?: boolean;
  children?: ReactNode;
}) {
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-6 dark:border-red-800 dark:bg-red-950/40">
      <h2 className="text-base font-semibold text-red-900 dark:text-red-100">{title}</h2>
      {message && <p className="mt-1 text-sm text-red-900 dark:text-red-200">{message}</p>}
      {children}
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          disabled={retrying}
          className="mt-4 inline-flex h-8 items-center gap-2 rounded-md bg-red-700 px-3 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-70 dark:bg-red-300 dark:text-red-950 dark:hover:bg-red-200"
        >
          {retrying && <Spinner />}
          {retrying ? 'Retrying…' : 'Try again'}
        </button>
      )}
    </div>
  );
}

export function Spinner({ className = '', label }: { className?: string; label?: string }) {
  return (
    <span className={`inline-flex items-center ${className}`} role={label ? 'status' : undefined}>
      <svg aria-hidden="true" width="14" height="14" viewBox="0 0 16 16" className="motion-safe:animate-spin">
        <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeOpacity="0.25" strokeWidth="2" />
        <path d="M8 1.5A6.5 6.5 0 0 1 14.5 8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      {label && <span className="sr-only">{label}</span>}
    </span>
  );
}

/** A grey block standing in for text while it loads; sized like what replaces it. */
export function Skeleton({ className = '' }: { className?: string }) {
  return <span aria-hidden="true" className={`block animate-pulse rounded bg-surface-2 ${className}`} />;
}
