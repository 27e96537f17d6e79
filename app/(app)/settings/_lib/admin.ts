// The access check of the settings pages: each page checks for itself (Next renders a page
// without its layout on client-side navigation), through the page context, and reads
// through verbs that check the scope again.
import { allows, type Actor } from '@/lib/core/access/decide';
import type { Scope } from '@/lib/core/access/scopes';
import type { ServiceContext } from '@/lib/core/context';
import { pageContext } from '@/lib/transports/pages/context';

export type SettingsAccess =
  | { ctx: ServiceContext; actor: Actor }
  | { denied: 'open' | 'viewer'; email?: string };

/**
 * Whether the page's visitor has `scope` (admin: users and keys; configure: score configs).
 * In open mode the visitor configures but has no users or keys to manage: 'open'.
 */
export async function settingsAccess(path: string, scope: Extract<Scope, 'admin' | 'configure'> = 'admin'): Promise<SettingsAccess> {
  const { ctx, actor } = await pageContext(path);
  if (allows(ctx.principal, scope)) return { ctx, actor };
  if (actor.kind === 'user') return { denied: 'viewer', email: actor.email };
  return { denied: 'open' };
}

/** The request's clock, handed to client components so their first render matches the HTML. */
export function requestTime(): number {
  return Date.now();
}
