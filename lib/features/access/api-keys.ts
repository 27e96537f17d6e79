// API keys made by admins in /settings/api-keys, through Better Auth's api-key plugin:
// the key is shown once, stored only as its SHA-256 hash, listed by name, first
// characters, scopes, creation and last use, and revoked (deleted) at once.
import 'server-only';
import { AppError } from '@/lib/core/errors';
import { API_KEY_NAME_MAX, API_KEY_PREFIX, getAuth } from './auth';
import { isKeyScope, KEY_SCOPES, PERMISSION_RESOURCE, scopesOf, type KeyScope } from '@/lib/core/access/scopes';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { sql } from '@/lib/db/sql';

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** The key's first characters (prefix included), enough to recognise it. */
  start: string;
  scopes: KeyScope[];
  createdAt: string;
  lastUsedAt: string | null;
}

export interface NewApiKey {
  name: string;
  scopes: KeyScope[];
}

export function parseNewApiKey(body: unknown): NewApiKey {
  const b = (body ?? {}) as Record<string, unknown>;
  const name = typeof b.name === 'string' ? b.name.trim() : '';
  if (!name || name.length > API_KEY_NAME_MAX) throw new AppError('VALIDATION', `name is required (at most ${API_KEY_NAME_MAX} characters)`);
  const scopes = Array.isArray(b.scopes) ? b.scopes : [];
  if (scopes.length === 0 || !scopes.every(isKeyScope)) {
    throw new AppError('VALIDATION', `scopes must be a non-empty list of: ${KEY_SCOPES.join(', ')}`);
  }
  return { name, scopes: [...new Set(scopes)] };
}

/**
 * Creates a key owned by the admin who made it; the returned `key` is never shown again.
 * Called as the server (no request headers): the plugin refuses permissions from a
 * client's call, and the admin check is ours (route rule 'admin').
 */
export async function createApiKey(ctx: ServiceContext, input: NewApiKey): Promise<ApiKeyRecord & { key: string }> {
  const actor = requireScope(ctx, 'admin');
  // Keys belong to the person who made them (only people are admins).
  if (actor.kind !== 'user') throw new AppError('FORBIDDEN', 'This needs the admin role');
  const creatorId = actor.userId;
  const auth = await getAuth();
  const created = await auth.api.createApiKey({
    body: { name: input.name, userId: creatorId, prefix: API_KEY_PREFIX, permissions: { [PERMISSION_RESOURCE]: input.scopes } },
  });
  return {
    id: created.id,
    name: input.name,
    start: created.start ?? created.key.slice(0, 10),
    scopes: input.scopes,
    createdAt: new Date(created.createdAt).toISOString(),
    lastUsedAt: null,
    key: created.key,
  };
}

export async function listApiKeys(ctx: ServiceContext): Promise<ApiKeyRecord[]> {
  requireScope(ctx, 'admin');
  const rows = await ctx.db.sql.query<{
    id: string;
    name: string | null;
    start: string | null;
    prefix: string | null;
    permissions: string | null;
    createdAt: Date;
    lastRequest: Date | null;
  }>(sql`SELECT "id", "name", "start", "prefix", "permissions", "createdAt", "lastRequest" FROM "Apikey" ORDER BY "createdAt" DESC`);
  return rows.map((k) => ({
    id: k.id,
    name: k.name ?? '',
    start: k.start ?? k.prefix ?? '',
    scopes: scopesOf(k.permissions),
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastRequest ? k.lastRequest.toISOString() : null,
  }));
}

/** Deletes the key: the next request with it is refused. */
export async function revokeApiKey(ctx: ServiceContext, id: string): Promise<void> {
  requireScope(ctx, 'admin');
  const deleted = await ctx.db.sql.query(sql`DELETE FROM "Apikey" WHERE "id" = ${id} RETURNING "id"`);
  if (deleted.length === 0) throw new AppError('NOT_FOUND', 'API key not found');
}
