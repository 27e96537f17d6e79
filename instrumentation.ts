// Runs once when the server starts: checks every configuration variable (a bad one stops
// the server here, with its name, not at the first request), creates the first admin
// from ADMIN_EMAIL (if it does not exist yet), says loudly when the server is open to
// anyone, and starts housekeeping (with retention, when RETENTION_DAYS is set).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // First, so that every request from here on carries its socket address (the sign-in throttle's per-address count).
  const { recordSocketAddresses } = await import('./lib/core/client-address');
  recordSocketAddresses();
  // Also first: a path segment that is not valid percent-encoding would make Next's router answer a bare 500.
  const { repairRequestPaths } = await import('./lib/transports/http/request-path');
  repairRequestPaths();
  const { validateConfigOrStop } = await import('./lib/core/startup');
  validateConfigOrStop();
  const { getAccessConfig, getRetentionDays } = await import('./lib/core/config');
  const { configuredProtected } = await import('./lib/core/access/configured');
  if (configuredProtected()) {
    if (getAccessConfig().adminEmail) {
      const { getAuth } = await import('./lib/features/access');
      // Building the auth instance creates the ADMIN_EMAIL account when missing.
      await getAuth().catch((err) => console.error('[crossroads] could not prepare sign-in:', err));
    }
  } else {
    console.warn(
      '[crossroads] WARNING: nothing is configured - open mode: anyone who can reach this server can read traces, ' +
        'and writes accept any non-empty key. Set ADMIN_EMAIL and ADMIN_PASSWORD (or API_KEYS) for any deployment reachable by others.',
    );
  }
  const retentionDays = getRetentionDays();
  if (retentionDays !== undefined) console.info(`[crossroads] retention: traces older than ${retentionDays} days are deleted, checked every 10 minutes`);
  // Closes OTLP traces whose root span never came, even when no more spans arrive; runs retention now and periodically.
  const { startHousekeepingTimer } = await import('./lib/upkeep');
  startHousekeepingTimer();
}
