// Principals and helpers for score tests: who writes, and how many scores are stored.
import type { Credential } from '@/lib/core/access/decide';
import type { KeyScope } from '@/lib/core/access/scopes';
import type { ServiceContext } from '@/lib/core/context';
import type { Database } from '@/lib/db/open';
import { contextAs } from './context';

export const asKey = (db: Database, scopes: KeyScope[] = ['ingest', 'read'], keyName = 'sdk key', keyId: string | null = 'k-1'): ServiceContext =>
  contextAs(db, { mode: 'protected', keysOnly: false, credential: { kind: 'key', identity: { keyId, keyName, scopes } } });

export const asPerson = (db: Database, userId: string, role: 'admin' | 'viewer' = 'viewer', name = `person ${userId}`): ServiceContext => {
  const credential: Credential = { kind: 'session', identity: { userId, email: `${userId}@example.test`, name, role } };
  return contextAs(db, { mode: 'protected', keysOnly: false, credential });
};

export async function scoreCount(db: Database, where = 'TRUE'): Promise<number> {
  const [{ n }] = await db.sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Score" WHERE ${where}`);
  return n;
}
