import Link from 'next/link';

// Rendered with HTTP 404 when the trace does not exist.
export default function TraceNotFound() {
  return (
    <div className="mx-auto max-w-2xl py-16">
      <p className="text-sm font-medium text-muted">404</p>
      <h1 className="mt-1 text-2xl font-semibold">Trace not found</h1>
      <p className="mt-3 text-muted">
        No trace with this ID has been stored. It may not have been sent yet, the ingest may have failed, or the link
        may be mistyped.
      </p>
      <Link href="/traces" className="mt-6 inline-block font-medium text-accent hover:underline">
        ← Back to all traces
      </Link>
    </div>
  );
}
