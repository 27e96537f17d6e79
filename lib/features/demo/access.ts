import 'server-only';
import { isAppError } from '@/lib/core/errors';
import type { Actor } from '@/lib/core/access/decide';
import { requireScope, type ServiceContext } from '@/lib/core/context';

/**
 * Demo data may be loaded by whoever may write traces (`ingest`: a key, or any key in open
 * mode) and removed by whoever may delete them (`delete`), and by admins either way: they
 * sign in with a session, which never ingests. Returns who it runs as; otherwise throws the
 * scope's own refusal.
 */
export function requireDemoScope(ctx: ServiceContext, scope: 'ingest' | 'delete'): Actor {
  try {
    return requireScope(ctx, 'admin');
  } catch (asAdmin) {
    if (!isAppError(asAdmin)) throw asAdmin;
    // A signed-in viewer hears that it needs the admin role, not that it lacks a key.
    if (ctx.principal.credential.kind === 'session') throw asAdmin;
    return requireScope(ctx, scope);
  }
}
