import { AUTH_BASE_PATH } from '@/lib/access/auth';
import { handleAuthRequest } from '@/lib/access/auth-endpoint';
import { publicRoute } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// Public by nature (this is where people sign in); lib/access/auth-endpoint.ts narrows it.
const handler = publicRoute(async (req: Request) => handleAuthRequest(req, new URL(req.url).pathname.slice(AUTH_BASE_PATH.length)));

// GET, POST /api/auth/* - Better Auth: sign-in, sign-out, session, SSO callback
export const GET = handler;
export const POST = handler;
