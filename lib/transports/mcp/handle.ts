// The Streamable HTTP side: one POST is one JSON-RPC exchange answered as JSON, with no
// session kept between requests (so any process, or a serverless function, can serve the
// next one). The caller is authenticated before this runs (the route's rule).
import 'server-only';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { withBodyAdmission } from '@/lib/core/admission';
import { getLimits } from '@/lib/core/config';
import type { ServiceContext } from '@/lib/core/context';
import { withBoundedBody } from '@/lib/transports/http/body';
import { createMcpServer } from './server';

export async function handleMcpPost(req: Request, ctx: ServiceContext): Promise<Response> {
  const limits = getLimits();
  // The SDK reads the body itself: it gets one read within the server's body limit.
  const bounded = await withBodyAdmission(req, limits, () => withBoundedBody(req, limits.maxBodyBytes));
  const server = createMcpServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    // The body is already within the server's limit; the SDK's own (4 MiB) must not be a second, different one.
    maxRequestBodySize: limits.maxBodyBytes,
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(bounded);
    const headers = new Headers(response.headers);
    headers.set('Cache-Control', 'no-store');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  } finally {
    await server.close();
  }
}

/**
 * GET (a stream the server could push on) and DELETE (ending a session) mean nothing
 * without sessions: 405, as the Streamable HTTP transport allows.
 */
export function mcpMethodNotAllowed(): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless; send requests with POST' }, id: null },
    { status: 405, headers: { Allow: 'POST', 'Cache-Control': 'no-store' } },
  );
}
