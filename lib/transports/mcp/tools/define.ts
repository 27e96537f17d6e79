// One way to declare a tool: typed input and output schemas, a run that answers text for
// the model and the structured value, and every failure through the one encoder.
import 'server-only';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod';
import { toolError } from '../errors';

export type ToolRegistry = McpServer;

export interface ToolDefinition<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  title: string;
  description: string;
  input: I;
  output: O;
  /** Reads only (every tool but add_score): a hint clients show. */
  readOnly: boolean;
  run(args: z.infer<z.ZodObject<I>>): Promise<{ text: string; structured: z.infer<z.ZodObject<O>> }>;
}

export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(tools: ToolRegistry, name: string, tool: ToolDefinition<I, O>): void {
  const handler = async (args: z.infer<z.ZodObject<I>>): Promise<CallToolResult> => {
    try {
      const { text, structured } = await tool.run(args);
      return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> };
    } catch (err) {
      return toolError(err);
    }
  };
  tools.registerTool(
    name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      outputSchema: tool.output,
      annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
    },
    // The SDK's callback type is inferred from its own zod compatibility layer; the shapes are the same.
    handler as never,
  );
}
