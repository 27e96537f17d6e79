import Link from 'next/link';

/**
 * What a settings page shows to someone who may not manage the server: a viewer (403),
 * or anyone in open mode, where nobody signs in and so nobody is an admin.
 */
export function SettingsDenied({ reason, email }: { reason: 'open' | 'viewer'; email?: string }) {
  if (reason === 'open') {
    return (
      <div className="mx-auto max-w-2xl py-16">
        <p className="text-sm font-medium text-muted">403</p>
        <h1 className="mt-1 text-2xl font-semibold">Settings need an admin: set ADMIN_EMAIL/ADMIN_PASSWORD</h1>
        <p className="mt-3 text-muted">
          This server is in open mode: nobody signs in, so nobody can manage users or API keys. Set{' '}
          <code className="font-mono text-fg">ADMIN_EMAIL</code> and <code className="font-mono text-fg">ADMIN_PASSWORD</code>, restart,
          and sign in with them: that account is an admin, and every read and write then needs credentials.
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
