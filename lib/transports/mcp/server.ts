// The MCP server of one request: the tools and the trace resource, each bound to the
// caller's context, so every tool reads and writes with the caller's scopes through the
// domain verbs (the verbs check them again). Stateless: one server per request.
import 'server-only';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServiceContext } from '@/lib/core/context';
import { resourceError } from './errors';
import { registerDecisionTools } from './tools/decisions';
import { registerScoreTools } from './tools/scores';
import { registerSessionTools } from './tools/sessions';
import { registerTraceTools, traceReport } from './tools/traces';

export const SERVER_NAME = 'crossroads';
export const SERVER_VERSION = '1.0.0';
/** The payload cut of the trace resource, get_trace's default. */
const RESOURCE_PAYLOAD_CHARS = 2000;

const INSTRUCTIONS =
  'Crossroads stores AI agent traces: runs (traces) made of spans, with the decisions the agent took (chosen option and alternatives). ' +
  'To debug a failed run: get_trace for its errors and decision path, then similar_runs for the other runs that took the same turn, or compare_traces against a successful run.';

export function createMcpServer(ctx: ServiceContext): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION }, { instructions: INSTRUCTIONS });
  registerTraceTools(server, ctx);
  registerSessionTools(server, ctx);
  registerDecisionTools(server, ctx);
  registerScoreTools(server, ctx);
  server.registerResource(
    'trace',
    new ResourceTemplate('crossroads://traces/{id}', { list: undefined }),
    { title: 'A trace', description: 'The trace as get_trace reports it', mimeType: 'text/plain' },
    async (uri, variables) => {
      const id = Array.isArray(variables.id) ? variables.id[0] : variables.id;
      try {
        const { text } = await traceReport(ctx, decodeURIComponent(id ?? ''), RESOURCE_PAYLOAD_CHARS);
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
      } catch (err) {
        throw resourceError(err);
      }
    },
  );
  return server;
}
