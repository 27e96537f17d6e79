'use client';

import { useMemo, useState } from 'react';
import { toConversation, type Side } from '@/lib/features/conversation/shared';
import { requestDetails } from '@/lib/features/conversation/shared';
import type { JsonValue } from '@/lib/core/json';
import { JsonViewer } from '@/components/json/JsonViewer';
import { Conversation } from './Conversation';
import { RequestDetails } from './RequestDetails';

/**
 * A model call's input or output: as a chat when its shape is a known one, with the raw
 * JSON one toggle away; anything else in the JSON viewer. Beside an input's chat, the rest
 * of its request (parameters, also those the span's `metadata` records, tools, other keys).
 */
export function ChatPayload({ label, value, side, metadata }: { label: string; value: JsonValue; side: Side; metadata?: JsonValue }) {
  const messages = useMemo(() => toConversation(value, side), [value, side]);
  const request = useMemo(() => (side === 'input' ? requestDetails(value, metadata) : null), [value, side, metadata]);
  const [mode, setMode] = useState<'chat' | 'json'>('chat');
  if (!messages) {
    // Not a conversation: the JSON shows the whole input; the metadata's parameters are shown beside it.
    return (
      <div className="space-y-2">
        <JsonViewer label={label} value={value} />
        {request && <RequestDetails details={request} label={label} />}
      </div>
    );
  }
  return (
    <section aria-label={label} className="space-y-2" data-testid={`chat-${side}`}>
      <div className="flex items-center gap-2">
        <h4 className="text-xs font-semibold text-fg">{label}</h4>
        <span className="text-[11px] text-muted">
          {messages.length} {messages.length === 1 ? 'message' : 'messages'}
        </span>
        <div role="group" aria-label={`${label} view`} className="ml-auto flex overflow-hidden rounded border border-border text-xs">
          {(['chat', 'json'] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              onClick={() => setMode(m)}
              className={`px-1.5 py-0.5 ${mode === m ? 'bg-surface-2 font-medium text-fg' : 'text-muted hover:text-fg'}`}
            >
              {m === 'chat' ? 'Chat' : 'JSON'}
            </button>
          ))}
        </div>
      </div>
      {mode === 'json' ? (
        <JsonViewer label={`${label} (JSON)`} value={value} />
      ) : (
        // Beside the chat when the panel is wide enough, below it when not.
        <div className="@container">
          <div className="grid gap-3 @3xl:grid-cols-[minmax(0,1fr)_minmax(16rem,24rem)] @3xl:items-start">
            <Conversation messages={messages} label={`${label} messages`} />
            {request && <RequestDetails details={request} label={label} />}
          </div>
        </div>
      )}
    </section>
  );
}
