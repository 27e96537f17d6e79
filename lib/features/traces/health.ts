// GET /api/health: a real round-trip to the database, cheap enough to poll every second.
import 'server-only';
import { configuredProtected } from '@/lib/core/access/configured';
import { accessMode, type AccessMode } from '@/lib/features/access';
import { APP_VERSION } from '@/lib/core/config';
import { getDatabase } from '@/lib/db';
import { sql } from '@/lib/db/sql';

// `auth` ("keys" | "open") predates access control and stays; `mode` says whether
// credentials are needed to read and write ("protected") or not ("open").
type Auth = 'keys' | 'open';
export type HealthReport =
  | { status: 'ok'; database: 'ok'; version: string; auth: Auth; mode: AccessMode }
  | { status: 'error'; database: 'unreachable'; version: string; auth: Auth; mode: AccessMode };

const authOf = (mode: AccessMode): Auth => (mode === 'open' ? 'open' : 'keys');

export async function checkHealth(): Promise<HealthReport> {
  try {
    const db = await getDatabase();
    await db.sql.query(sql`SELECT 1`);
    const mode = await accessMode();
    return { status: 'ok', database: 'ok', version: APP_VERSION, auth: authOf(mode), mode };
  } catch (err) {
    console.error('health: database unreachable:', (err as Error).message);
    // The database cannot say whether users exist: configuration alone decides here.
    const mode: AccessMode = configuredProtected() ? 'protected' : 'open';
    return { status: 'error', database: 'unreachable', version: APP_VERSION, auth: authOf(mode), mode };
  }
}
