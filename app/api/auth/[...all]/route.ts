import { AUTH_BASE_PATH } from '@/lib/features/access';
import { handleAuthRequest } from '@/lib/transports/http/auth-endpoint';
import { withBoundedBody } from '@/lib/transports/http/body';
import { publicRoute } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// Sign-in, sign-out and SSO bodies are a few hundred bytes; these are read before anyone is
// known, so a larger one is refused (413) rather than buffered by the library.
const AUTH_BODY_BYTES = 64 * 1024;

// Public by nature (this is where people sign in); lib/transports/http/auth-endpoint.ts narrows it.
const handler = publicRoute(async (req: Request) =>
  handleAuthRequest(await withBoundedBody(req, AUTH_BODY_BYTES), new URL(req.url).pathname.slice(AUTH_BASE_PATH.length)),
);

// GET, POST /api/auth/* - Better Auth: sign-in, sign-out, session, SSO callback
export const GET = handler;
export const POST = handler;
