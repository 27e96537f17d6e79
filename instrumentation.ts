// Runs once when the server starts: say loudly when ingest is not protected by keys.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { authMode } = await import('./lib/access/credentials');
  // Closes OTLP traces whose root span never came, even when no more spans arrive.
  const { startHousekeepingTimer } = await import('./lib/housekeeping');
  startHousekeepingTimer();
  if (authMode() === 'open') {
    console.warn(
      '[crossroads] WARNING: API_KEYS is not set - open mode: POST /api/traces and SOAP accept any non-empty key. ' +
        'Set API_KEYS for any deployment that is reachable by others.',
    );
  }
}
