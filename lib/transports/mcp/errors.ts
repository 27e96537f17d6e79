// The MCP transport's one error encoder: whatever a tool's verb throws becomes a tool
// result with isError and a sentence the model can act on (an unknown id, a bad filter, a
// missing scope), never a JSON-RPC error; unexpected failures are logged and hidden.
import 'server-only';
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { BusyError } from '@/lib/core/budget';
import { isAppError } from '@/lib/core/errors';

/** The MCP specification's JSON-RPC code for a resource that does not exist (the SDK names none). */
const RESOURCE_NOT_FOUND = -32002;

function messageOf(err: unknown): { message: string; known: boolean } {
  if (err instanceof BusyError) return { message: `${err.message}; try again in ${err.retryAfterSeconds} s`, known: true };
  if (isAppError(err)) {
    const retry = err.retryAfterSeconds !== undefined ? `; try again in ${err.retryAfterSeconds} s` : '';
    return { message: `${err.message}${retry}`, known: true };
  }
  const requestId = randomUUID();
  console.error(`[${requestId}] mcp: unhandled error:`, err);
  return { message: `Internal server error (request ${requestId})`, known: false };
}

/** A tool's failure as the tool result the model reads. */
export function toolError(err: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: messageOf(err).message }] };
}

/** A resource read's failure: resources have no error result, so a JSON-RPC error with the same sentence. */
export function resourceError(err: unknown): McpError {
  const { message, known } = messageOf(err);
  const code = isAppError(err) && err.code === 'NOT_FOUND' ? RESOURCE_NOT_FOUND : known ? ErrorCode.InvalidParams : ErrorCode.InternalError;
  return new McpError(code, message);
}
