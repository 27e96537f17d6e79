// The admin check of the settings pages: each page checks for itself (Next renders a page
// without its layout on client-side navigation), through the page context, and reads
// through verbs that check the admin scope again.
import { allows, type Actor } from '@/lib/core/access/decide';
import type { ServiceContext } from '@/lib/core/context';
import { pageContext } from '@/lib/transports/pages/context';

export type SettingsAccess =
  | { ctx: ServiceContext; admin: Extract<Actor, { kind: 'user' }> }
  | { denied: 'open' | 'viewer'; email?: string };

export async function settingsAccess(path: string): Promise<SettingsAccess> {
  const { ctx, actor } = await pageContext(path);
  if (actor.kind === 'user' && allows(ctx.principal, 'admin')) return { ctx, admin: actor };
  if (actor.kind === 'user') return { denied: 'viewer', email: actor.email };
  // Open mode (pages never see a key): there is no one to be an admin.
  return { denied: 'open' };
}

/** The request's clock, handed to client components so their first render matches the HTML. */
export function requestTime(): number {
  return Date.now();
}
