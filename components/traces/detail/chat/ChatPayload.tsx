'use client';

import { useMemo, useState } from 'react';
import { offeredTools, toConversation, type Side } from '@/lib/conversation/parse';
import type { JsonValue } from '@/lib/traces/types';
import { JsonViewer } from '@/components/json/JsonViewer';
import { Conversation } from './Conversation';

/**
 * A model call's input or output: as a chat when its shape is a known one, with the raw
 * JSON one toggle away; anything else in the JSON viewer.
 */
export function ChatPayload({ label, value, side }: { label: string; value: JsonValue; side: Side }) {
  const messages = useMemo(() => toConversation(value, side), [value, side]);
  const tools = useMemo(() => (side === 'input' ? offeredTools(value) : []), [value, side]);
  const [mode, setMode] = useState<'chat' | 'json'>('chat');
  if (!messages) return <JsonViewer label={label} value={value} />;
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
        <>
          <Conversation messages={messages} label={`${label} messages`} />
          {tools.length > 0 && (
            <p className="text-xs text-muted">
              Tools offered: <span className="font-mono">{tools.join(', ')}</span>
            </p>
          )}
        </>
      )}
    </section>
  );
}
