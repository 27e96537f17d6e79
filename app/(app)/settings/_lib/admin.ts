// The admin check of the settings pages. Next renders a page in parallel with its
// layouts, so each page checks for itself rather than trusting app/(app)/layout.tsx.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { pagePrincipal, type Principal } from '@/lib/access/check';
import { signInPath } from '@/lib/access/pages';

export type SettingsAccess =
  | { admin: Extract<Principal, { kind: 'user' }> }
  | { denied: 'open' | 'viewer'; email?: string };

export async function settingsAccess(path: string): Promise<SettingsAccess> {
  const principal = await pagePrincipal(await headers());
  if (!principal) redirect(signInPath(path));
  if (principal.kind === 'user' && principal.role === 'admin') return { admin: principal };
  if (principal.kind === 'user') return { denied: 'viewer', email: principal.email };
  // Open mode (pages never see a key): there is no one to be an admin.
  return { denied: 'open' };
}

/** The request's clock, handed to client components so their first render matches the HTML. */
export function requestTime(): number {
  return Date.now();
}
