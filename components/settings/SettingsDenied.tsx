import Link from 'next/link';

/**
 * What a settings page of users or keys shows to someone who may not manage them: a
 * viewer (403), or the visitor of an open-mode server, who is its admin but has nobody to
 * manage, as nobody signs in (not a refusal: it says how protection starts).
 */
export function SettingsDenied({ reason, email }: { reason: 'open' | 'viewer'; email?: string }) {
  if (reason === 'open') {
    return (
      <div className="mx-auto max-w-2xl py-16" data-testid="open-mode-settings">
        <h1 className="text-2xl font-semibold">Open mode: nobody signs in yet</h1>
        <p className="mt-3 text-muted">
          On this server whoever reaches it is the admin, so there are no people or API keys to manage here yet. You can set up{' '}
          <Link href="/settings/scores" className="font-medium text-accent hover:underline">
            score configs
          </Link>{' '}
          now.
        </p>
        <p className="mt-3 text-muted">
          To protect it, set <code className="font-mono text-fg">ADMIN_EMAIL</code> and <code className="font-mono text-fg">ADMIN_PASSWORD</code>{' '}
          (or <code className="font-mono text-fg">API_KEYS</code>), restart, and sign in with them: that account is an admin and manages
          people and keys here, and every read and write then needs credentials.
        </p>
        <Link href="/traces" className="mt-6 inline-block font-medium text-accent hover:underline">
          ← Back to all traces
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-2xl py-16">
      <p className="text-sm font-medium text-muted">403</p>
      <h1 className="mt-1 text-2xl font-semibold">Admins only</h1>
      <p className="mt-3 text-muted">
        You are signed in as <span className="font-medium text-fg">{email}</span>, a viewer: you can read traces, but managing
        users and API keys needs the admin role. Ask an admin to change your role on the Users page.
      </p>
      <Link href="/traces" className="mt-6 inline-block font-medium text-accent hover:underline">
        ← Back to all traces
      </Link>
    </div>
  );
}
