// Runs once when the server starts: say loudly when ingest is not protected by keys.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { authMode } = await import('./lib/auth');
  if (authMode() === 'open') {
    console.warn(
      '[crossroads] WARNING: API_KEYS is not set - open mode: POST /api/traces and SOAP accept any non-empty key. ' +
        'Set API_KEYS for any deployment that is reachable by others.',
    );
  }
}
