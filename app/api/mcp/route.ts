import { route } from '@/lib/transports/http/respond';
import { handleMcpPost, mcpMethodNotAllowed } from '@/lib/transports/mcp/handle';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// POST /api/mcp - the Model Context Protocol (Streamable HTTP, stateless, JSON answers): tools over traces, decisions and scores
export const POST = route({ scope: 'read' }, async (req, _params, ctx) => handleMcpPost(req, ctx));

// GET /api/mcp - no server-sent stream without sessions: 405 (after the caller is known, as every route)
export const GET = route({ scope: 'read' }, async () => mcpMethodNotAllowed());

// DELETE /api/mcp - no session to end: 405
export const DELETE = route({ scope: 'read' }, async () => mcpMethodNotAllowed());
