// Runs once when the server starts: creates the first admin from ADMIN_EMAIL (if it does
// not exist yet), says loudly when the server is open to anyone, and starts housekeeping.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { configuredProtected } = await import('./lib/access/configured');
  if (configuredProtected()) {
    if (process.env.ADMIN_EMAIL?.trim()) {
      const { getAuth } = await import('./lib/access/auth');
      // Building the auth instance creates the ADMIN_EMAIL account when missing.
      await getAuth().catch((err) => console.error('[crossroads] could not prepare sign-in:', err));
    }
  } else {
    console.warn(
      '[crossroads] WARNING: nothing is configured - open mode: anyone who can reach this server can read traces, ' +
        'and writes accept any non-empty key. Set ADMIN_EMAIL and ADMIN_PASSWORD (or API_KEYS) for any deployment reachable by others.',
    );
  }
  // Closes OTLP traces whose root span never came, even when no more spans arrive.
  const { startHousekeepingTimer } = await import('./lib/housekeeping');
  startHousekeepingTimer();
}
