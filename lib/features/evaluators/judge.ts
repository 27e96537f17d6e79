// The llm_judge evaluator: the run rendered into the evaluator's prompt, sent to an
// OpenAI-compatible chat-completions endpoint (JUDGE_*), the JSON answer {score, reasoning}
// read back. The official `openai` client speaks the protocol; retries are the queue's
// (durable, with backoff), so the client's own are off. The judge's call is priced with
// the same catalog as the agent's calls and kept on the score's metadata.
import OpenAI from 'openai';
import type { JudgeConfig as JudgeEndpoint } from '@/lib/core/config';
import type { CustomPrice } from '@/lib/core/custom-prices';
import type { JsonValue } from '@/lib/core/json';
import { priceModelCall } from '@/lib/features/pricing';
import { expectedSteps } from '@/lib/features/experiments/shared';
import type { TraceFacts } from './facts';
import type { EvaluationResult } from './types';
import type { JudgeConfig } from './validate';
import { EVALUATOR_LIMITS } from './limits';

/** What went wrong asking the judge: its evaluation fails with this message. */
export class JudgeError extends Error {}

/** A judge failure the queue retries later (429, 5xx, no connection), after `retryAfterMs` if the server said. */
export class TransientJudgeError extends JudgeError {
  constructor(
    message: string,
    readonly retryAfterMs: number | null,
  ) {
    super(message);
  }
}

const cut = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
const asText = (value: JsonValue | null | undefined) => (value === null || value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value));

/** The run's decisions, and the expected ones when the item has them, one per line. */
function decisionsText(facts: TraceFacts): string {
  const taken = facts.steps.length ? facts.steps.map((s, i) => `${i + 1}. ${s.type ? `${s.type}: ` : ''}${s.label}`).join('\n') : '(no decisions)';
  if (!facts.expectedDecisions?.length) return taken;
  const expected = expectedSteps(facts.expectedDecisions).map((s, i) => `${i + 1}. ${s.type ? `${s.type}: ` : ''}${s.label}`).join('\n');
  return `Taken:\n${taken}\nExpected:\n${expected}`;
}

/** The prompt with its {{placeholders}} filled; an unknown one stays as written. */
export function renderPrompt(template: string, facts: TraceFacts, trajectory: string): string {
  const n = EVALUATOR_LIMITS.payloadChars;
  const values: Record<string, string> = {
    input: cut(asText(facts.input), n),
    output: cut(asText(facts.output), n),
    expected: cut(asText(facts.expectedOutput), n),
    decisions: decisionsText(facts),
    trajectory,
  };
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
}

function instructions(config: JudgeConfig): string {
  const score = config.categories
    ? `"score": one of ${config.categories.map((c) => JSON.stringify(c)).join(', ')}`
    : '"score": a number from 0 (worst) to 1 (best)';
  return `You evaluate one run of an AI agent. Answer with a JSON object only: {${score}, "reasoning": "one or two sentences"}.`;
}

/** The judge's answer as a score, or a JudgeError saying what was wrong with it. */
export function readAnswer(content: string, config: JudgeConfig): { value: number | string; reasoning: string | null } {
  const unfenced = content.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  let answer: unknown;
  try {
    answer = JSON.parse(unfenced);
  } catch {
    throw new JudgeError(`The judge did not answer JSON: ${cut(content, 200)}`);
  }
  const { score, reasoning } = (answer ?? {}) as { score?: unknown; reasoning?: unknown };
  const why = typeof reasoning === 'string' ? reasoning : null;
  if (config.categories) {
    if (typeof score !== 'string' || !config.categories.includes(score)) throw new JudgeError(`The judge's score ${JSON.stringify(score)} is not one of ${config.categories.join(', ')}`);
    return { value: score, reasoning: why };
  }
  const value = typeof score === 'string' && score.trim() !== '' ? Number(score) : score;
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw new JudgeError(`The judge's score ${JSON.stringify(score)} is not a number from 0 to 1`);
  return { value, reasoning: why };
}

function retryAfterMs(headers: Headers | undefined): number | null {
  const raw = headers?.get('retry-after');
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(raw);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

/** Asks the judge about one run. Throws TransientJudgeError for what a later try may fix, JudgeError otherwise. */
export async function judgeRun(endpoint: JudgeEndpoint, prices: readonly CustomPrice[], config: JudgeConfig, facts: TraceFacts, trajectory: string): Promise<EvaluationResult> {
  const client = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey ?? 'unset', maxRetries: 0, timeout: endpoint.timeoutMs });
  const started = performance.now();
  let completion: OpenAI.Chat.Completions.ChatCompletion;
  try {
    completion = await client.chat.completions.create({
      model: endpoint.model,
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: instructions(config) },
        { role: 'user', content: renderPrompt(config.prompt, facts, trajectory) },
      ],
    });
  } catch (err) {
    if (err instanceof OpenAI.APIConnectionError) throw new TransientJudgeError(`The judge could not be reached: ${err.message}`, null);
    if (err instanceof OpenAI.APIError && (err.status === 429 || (err.status ?? 0) >= 500)) {
      throw new TransientJudgeError(`The judge answered ${err.status}: ${cut(err.message, 200)}`, retryAfterMs(err.headers));
    }
    if (err instanceof OpenAI.APIError) throw new JudgeError(`The judge answered ${err.status}: ${cut(err.message, 200)}`);
    throw err;
  }
  const durationMs = Math.round(performance.now() - started);
  const content = completion.choices[0]?.message?.content ?? '';
  const { value, reasoning } = readAnswer(content, config);
  const usage = completion.usage;
  const model = completion.model || endpoint.model;
  const price = usage
    ? priceModelCall(
        { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens, cacheReadTokens: usage.prompt_tokens_details?.cached_tokens ?? undefined, inputIncludesCache: true },
        model,
        undefined,
        prices,
      )
    : null;
  return {
    dataType: config.categories ? 'CATEGORICAL' : 'NUMERIC',
    value,
    comment: reasoning,
    metadata: {
      judge: {
        model,
        promptTokens: usage?.prompt_tokens ?? null,
        completionTokens: usage?.completion_tokens ?? null,
        costUsd: price?.costUsd ?? null,
        durationMs,
      },
    },
  };
}
