// The trace-level fields spans carry, as data: the trace's name (on its root span), its
// session and its tags (on the root, or else on any span). The first key present wins.
import { FIELD_LIMITS } from '@/lib/traces/limits';
import { isValidId } from '@/lib/traces/validate';
import type { JsonValue } from '@/lib/traces/types';
import { parseJsonText, setKey, truncate, type SpanAttributes } from '../attributes';
import type { Attributes } from '../types';

/** The root span's attributes that name the run; else the root span's own name. */
export const TRACE_NAME_KEYS: readonly string[] = ['gen_ai.agent.name', 'ai.telemetry.functionId'];

/** OpenInference / OpenTelemetry, GenAI, ours. */
export const SESSION_KEYS: readonly string[] = ['session.id', 'gen_ai.conversation.id', 'crossroads.session.id'];

/** A string array, or JSON text of one (OpenInference sends tag.tags as JSON text). */
export const TAG_KEYS: readonly string[] = ['tag.tags', 'crossroads.tags'];

/** The resource attribute shown beside the resource in a trace's metadata. */
export const SERVICE_NAME = 'service.name';

export function traceNameOf(attributes: SpanAttributes, spanName: string): string {
  for (const key of TRACE_NAME_KEYS) {
    const name = attributes.text(key);
    if (name !== undefined) return truncate(name, FIELD_LIMITS.nameLength);
  }
  return spanName;
}

/** The span's session id, if it carries a usable one (an id fit for a URL filter). */
export function sessionIdOf(attributes: SpanAttributes): string | undefined {
  for (const key of SESSION_KEYS) {
    const value = attributes.get(key);
    const id = typeof value === 'number' ? String(value) : value;
    if (isValidId(id)) return id;
  }
  return undefined;
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

/** A trace's metadata, kept small: its service and the resource that sent the root span. */
export function traceMetadataOf(resource: Attributes): JsonValue {
  const metadata: { [key: string]: JsonValue } = {};
  const service = Object.hasOwn(resource, SERVICE_NAME) ? resource[SERVICE_NAME] : undefined;
  if (service !== undefined) setKey(metadata, SERVICE_NAME, service);
  metadata.resource = resource;
  return metadata;
}
