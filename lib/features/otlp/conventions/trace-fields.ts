// The trace-level fields spans carry, as data: the trace's name (on its root span), its
// session, user and tags, and Langfuse's trace input, output and metadata (on the root,
// or else on any span). The first key present wins.
import { FIELD_LIMITS } from '@/lib/core/limits';
import { isValidId } from '@/lib/features/ingest/shared';
import type { JsonValue } from '@/lib/core/json';
import { parseJsonText, setKey, truncate, type SpanAttributes } from '@/lib/features/otlp/attributes';
import type { Attributes } from '@/lib/features/otlp/types';

/** The root span's attributes that name the run; else the root span's own name. */
export const TRACE_NAME_KEYS: readonly string[] = [
  'langfuse.trace.name',
  'gen_ai.agent.name',
  'ai.telemetry.functionId',
  'traceloop.workflow.name',
];

/** OpenInference / OpenTelemetry / Langfuse, GenAI, ours, then each framework's own. */
export const SESSION_KEYS: readonly string[] = [
  'session.id',
  'gen_ai.conversation.id',
  'crossroads.session.id',
  'langfuse.session.id',
  'traceloop.association.properties.session_id',
  'ai.telemetry.metadata.sessionId',
  'mastra.metadata.sessionId',
];

/** OpenTelemetry / OpenInference / Langfuse, Langfuse's older name, then each framework's own. */
export const USER_KEYS: readonly string[] = [
  'user.id',
  'langfuse.user.id',
  'crossroads.user.id',
  'traceloop.association.properties.user_id',
  'ai.telemetry.metadata.userId',
  'mastra.metadata.userId',
];

/** A string array, or JSON text of one (OpenInference sends tag.tags as JSON text). */
export const TAG_KEYS: readonly string[] = ['tag.tags', 'crossroads.tags', 'langfuse.trace.tags'];

/**
 * Langfuse's trace payloads, kept in the trace's metadata under these names. Its trace
 * metadata arrives as JSON text or flattened (`langfuse.trace.metadata.plan`).
 */
export const TRACE_PAYLOAD_KEYS: ReadonlyArray<{ key: string; as: 'input' | 'output' | 'metadata' }> = [
  { key: 'langfuse.trace.input', as: 'input' },
  { key: 'langfuse.trace.output', as: 'output' },
  { key: 'langfuse.trace.metadata', as: 'metadata' },
];

/** The resource attribute shown beside the resource in a trace's metadata. */
export const SERVICE_NAME = 'service.name';

export function traceNameOf(attributes: SpanAttributes, spanName: string): string {
  for (const key of TRACE_NAME_KEYS) {
    const name = attributes.text(key);
    if (name !== undefined) return truncate(name, FIELD_LIMITS.nameLength);
  }
  return spanName;
}

function idOf(attributes: SpanAttributes, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = attributes.get(key);
    const id = typeof value === 'number' ? String(value) : value;
    if (isValidId(id)) return id;
  }
  return undefined;
}

/** The span's session id, if it carries a usable one (an id fit for a URL filter). */
export function sessionIdOf(attributes: SpanAttributes): string | undefined {
  return idOf(attributes, SESSION_KEYS);
}

/** The span's end-user id, if it carries a usable one (same rule as a session id). */
export function userIdOf(attributes: SpanAttributes): string | undefined {
  return idOf(attributes, USER_KEYS);
}

/** One Langfuse trace payload of the span: the attribute (JSON text parsed), or its flattened `key.*` entries as an object. */
export function tracePayloadOf(attributes: SpanAttributes, key: string): JsonValue | undefined {
  if (attributes.has(key)) return attributes.json(key);
  // The scan below is for Langfuse's flattened metadata; other spans skip it.
  if (!attributes.hasNamespace(key.slice(0, key.indexOf('.')))) return undefined;
  const prefix = `${key}.`;
  let object: { [key: string]: JsonValue } | undefined;
  for (const name of Object.keys(attributes.values)) {
    if (name.startsWith(prefix)) setKey((object ??= {}), name.slice(prefix.length), attributes.json(name)!);
  }
  return object;
}

/**
 * The span's tags, if it carries any: strings only, each cut to the tag length limit, at
 * most the per-trace count (extras are dropped: a long tag list is no reason to refuse).
 */
export function tagsOf(attributes: SpanAttributes): string[] | undefined {
  for (const key of TAG_KEYS) {
    let value: JsonValue | undefined = attributes.get(key);
    if (typeof value === 'string') {
      const parsed = parseJsonText(value);
      value = Array.isArray(parsed) ? parsed : [value];
    }
    if (!Array.isArray(value)) continue;
    const tags: string[] = [];
    for (const tag of value) {
      if (typeof tag !== 'string' || tag === '') continue;
      tags.push(truncate(tag, FIELD_LIMITS.tagLength));
      if (tags.length === FIELD_LIMITS.tagsPerTrace) break;
    }
    if (tags.length > 0) return tags;
  }
  return undefined;
}

/**
 * A trace's metadata, kept small: its service, the resource that sent the root span, and
 * the trace payloads the spans carried (`input`, `output`, `metadata`: Langfuse's).
 */
export function traceMetadataOf(resource: Attributes, payloads: Partial<Record<'input' | 'output' | 'metadata', JsonValue>> = {}): JsonValue {
  const metadata: { [key: string]: JsonValue } = {};
  const service = Object.hasOwn(resource, SERVICE_NAME) ? resource[SERVICE_NAME] : undefined;
  if (service !== undefined) setKey(metadata, SERVICE_NAME, service);
  metadata.resource = resource;
  for (const { as } of TRACE_PAYLOAD_KEYS) if (payloads[as] !== undefined) metadata[as] = payloads[as];
  return metadata;
}
