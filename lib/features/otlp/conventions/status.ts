// A span's failure as its convention reports it beside (or instead of) the OTel status,
// as data: the attribute naming a level, the levels that mean failure, and where the
// message is. OTel's own ERROR status is read first, by the mapper.
import type { SpanAttributes } from '@/lib/features/otlp/attributes';

export interface StatusTable {
  convention: string;
  key: string;
  errorValues: readonly string[];
  messageKey: string;
}

export const STATUS_TABLES: readonly StatusTable[] = [
  // Langfuse's level: DEBUG, DEFAULT, WARNING, ERROR.
  { convention: 'langfuse', key: 'langfuse.observation.level', errorValues: ['ERROR'], messageKey: 'langfuse.observation.status_message' },
];

/** The failure a convention reports on the span: its message ('' when none), or undefined when it reports none. */
export function conventionErrorOf(attributes: SpanAttributes): string | undefined {
  for (const table of STATUS_TABLES) {
    const level = attributes.string(table.key);
    if (level !== undefined && table.errorValues.includes(level.toUpperCase())) return attributes.string(table.messageKey) ?? '';
  }
  return undefined;
}

/** A span's status message when OTel's ERROR status carries none: the convention's, if it has one. */
export function conventionMessageOf(attributes: SpanAttributes): string | undefined {
  for (const table of STATUS_TABLES) {
    const message = attributes.text(table.messageKey);
    if (message !== undefined) return message;
  }
  return undefined;
}
