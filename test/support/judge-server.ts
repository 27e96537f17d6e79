// An OpenAI-compatible chat-completions server on loopback, standing in for the LLM
// provider a judge calls (outside this network). It speaks the real protocol: the
// `openai` client parses its answers; each test decides what the judge says, and when it
// refuses (429 with Retry-After, 500) or hangs.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JudgeRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  response_format?: { type: string };
  authorization: string | undefined;
}

/** What the server does with one request: answer this content, or fail with a status. */
export type JudgeReply =
  | { content: string; usage?: { prompt_tokens: number; completion_tokens: number } }
  | { status: number; retryAfter?: string; message?: string }
  | { hang: true };

export interface JudgeServer {
  baseUrl: string;
  requests: JudgeRequest[];
  /** Sets how the next requests are answered (by default: a score of 1). */
  reply: (decide: (request: JudgeRequest, index: number) => JudgeReply) => void;
  close: () => Promise<void>;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startJudgeServer(): Promise<JudgeServer> {
  const requests: JudgeRequest[] = [];
  let decide: (request: JudgeRequest, index: number) => JudgeReply = () => ({ content: JSON.stringify({ score: 1, reasoning: 'Fine.' }) });
  const hanging = new Set<() => void>();
  const server: Server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
      return;
    }
    const parsed = JSON.parse(await body(req)) as Omit<JudgeRequest, 'authorization'>;
    const request: JudgeRequest = { ...parsed, authorization: req.headers.authorization };
    const index = requests.push(request) - 1;
    const reply = decide(request, index);
    if ('hang' in reply) {
      hanging.add(() => res.destroy());
      return;
    }
    if ('status' in reply) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (reply.retryAfter !== undefined) headers['retry-after'] = reply.retryAfter;
      res.writeHead(reply.status, headers).end(JSON.stringify({ error: { message: reply.message ?? `status ${reply.status}`, type: 'server_error' } }));
      return;
    }
    const usage = reply.usage ?? { prompt_tokens: 1000, completion_tokens: 50 };
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-${index}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: request.model,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.content, refusal: null }, finish_reason: 'stop', logprobs: null }],
        usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (next) => {
      decide = next;
    },
    close: async () => {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
