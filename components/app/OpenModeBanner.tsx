/** Shown on every page while the server has no credentials configured (open mode). */
export function OpenModeBanner() {
  return (
    <div role="status" data-testid="open-mode-banner" className="border-b border-amber-400 bg-amber-50 px-4 py-2 text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100">
      <p className="mx-auto max-w-[1600px]">
        <strong>Open mode: anyone who can reach this server can read and write traces.</strong> To turn it off, set{' '}
        <code>ADMIN_EMAIL</code> and <code>ADMIN_PASSWORD</code> (or <code>API_KEYS</code>) and restart; see <code>docs/access-control.md</code>.
      </p>
    </div>
  );
}
