// GET /api/health: a real round-trip to the database, cheap enough to poll every second.
import { authMode, type AuthMode } from '@/lib/auth';
import { APP_VERSION } from '@/lib/env';
import { getDatabase } from '@/lib/db';

export type HealthReport =
  | { status: 'ok'; database: 'ok'; version: string; auth: AuthMode }
  | { status: 'error'; database: 'unreachable'; version: string; auth: AuthMode };

export async function checkHealth(): Promise<HealthReport> {
  try {
    const db = await getDatabase();
    await db.sql.query('SELECT 1');
    return { status: 'ok', database: 'ok', version: APP_VERSION, auth: authMode() };
  } catch (err) {
    console.error('health: database unreachable:', (err as Error).message);
    return { status: 'error', database: 'unreachable', version: APP_VERSION, auth: authMode() };
  }
}
