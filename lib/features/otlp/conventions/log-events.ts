// GenAI content sent as log records (events) rather than span attributes, as data: which
// event names carry a prompt message, a model answer, or a whole call's details. A span
// that has no input or output of its own takes them from these (see lib/features/otlp/logs.ts).
import type { JsonValue } from '@/lib/core/json';

/** Semantic conventions before 1.37: one record per message, the role in the name unless the body says it. */
export const MESSAGE_EVENTS: Readonly<Record<string, { side: 'input' | 'output'; role: string }>> = {
  'gen_ai.system.message': { side: 'input', role: 'system' },
  'gen_ai.user.message': { side: 'input', role: 'user' },
  'gen_ai.assistant.message': { side: 'input', role: 'assistant' },
  'gen_ai.tool.message': { side: 'input', role: 'tool' },
  // Body `{ index, finish_reason, message: { role, content, tool_calls } }`.
  'gen_ai.choice': { side: 'output', role: 'assistant' },
};

/** Since 1.37: one record per call, holding gen_ai.input.messages / output.messages / system_instructions as attributes. */
export const DETAILS_EVENTS: readonly string[] = ['gen_ai.client.inference.operation.details'];

/** Where a record's event name is: the OTLP field (since 1.5), else the older attribute. */
export const EVENT_NAME_ATTRIBUTE = 'event.name';

/** Severities from ERROR (17) up make a record an ERROR event. */
export const ERROR_SEVERITY = 17;

type Obj = { [key: string]: JsonValue };
const isObj = (v: JsonValue | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One message of a per-message event, as the span input/output list holds it: `{ role, ...body }`. */
export function messageOf(eventName: string, body: JsonValue): { side: 'input' | 'output'; message: JsonValue } | undefined {
  const rule = Object.hasOwn(MESSAGE_EVENTS, eventName) ? MESSAGE_EVENTS[eventName] : undefined;
  if (!rule) return undefined;
  if (rule.side === 'output') {
    const message = isObj(body) && isObj(body.message) ? body.message : undefined;
    const choice: Obj = { role: rule.role, ...(message ?? {}) };
    if (isObj(body) && body.finish_reason !== undefined) choice.finish_reason = body.finish_reason;
    if (!message && body !== null) choice.content = body;
    return { side: 'output', message: choice };
  }
  return { side: 'input', message: isObj(body) ? { role: rule.role, ...body } : { role: rule.role, content: body } };
}
