import Link from 'next/link';

// Rendered with HTTP 404 when no trace has this session ID.
export default function SessionNotFound() {
  return (
    <div className="mx-auto max-w-2xl py-16">
      <p className="text-sm font-medium text-muted">404</p>
      <h1 className="mt-1 text-2xl font-semibold">Session not found</h1>
      <p className="mt-3 text-muted">No stored trace has this session ID. Its traces may not have been sent yet, may have been deleted, or the link may be mistyped.</p>
      <Link href="/sessions" className="mt-6 inline-block font-medium text-accent hover:underline">
        ← All sessions
      </Link>
    </div>
  );
}
