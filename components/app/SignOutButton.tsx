'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';

/** Ends the session (Better Auth's sign-out endpoint) and goes to the sign-in page. */
export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  const router = useRouter();
  return (
    <button
      type="button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await fetch('/api/auth/sign-out', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }).catch(() => undefined);
        router.replace('/sign-in');
        router.refresh();
      }}
      className="rounded border border-border px-2 py-1 text-xs text-fg hover:bg-surface-2 disabled:opacity-50"
    >
      Sign out
    </button>
  );
}
