// The context of a page render: built once per request (React's cache) from the
// request's cookies, and checked for the read scope before any data is read. Every page
// and generateMetadata of the viewer starts here, because Next renders a page without
// its shared layout on client-side navigation: app/(app)/layout.tsx and proxy.ts only
// redirect earlier, as a convenience.
import 'server-only';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import type { Actor } from '@/lib/core/access/decide';
import { REQUEST_PATH_HEADER, signInPath } from '@/lib/transports/pages/sign-in';
import { isAppError } from '@/lib/core/errors';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { requestContext } from '@/lib/features/access';

const pageRequestContext = cache(async (): Promise<ServiceContext> => requestContext(await headers(), { kind: 'page' }));

/** The page's context and who reads it; without the read scope, a redirect to /sign-in that comes back to `path`. */
export async function pageContext(path?: string): Promise<{ ctx: ServiceContext; actor: Actor }> {
  const ctx = await pageRequestContext();
  try {
    return { ctx, actor: requireScope(ctx, 'read') };
  } catch (err) {
    if (isAppError(err) && (err.code === 'UNAUTHENTICATED' || err.code === 'FORBIDDEN')) {
      redirect(signInPath(path ?? (await headers()).get(REQUEST_PATH_HEADER)));
    }
    throw err;
  }
}
