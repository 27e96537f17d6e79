'use client';

import { useState } from 'react';
import type { Message, Part } from '@/lib/features/conversation/shared';
import type { JsonValue } from '@/lib/core/json';
import { formatBytes } from '@/lib/core/format';
import { JsonViewer } from '@/components/json/JsonViewer';
import { LongText } from '@/components/ui/LongText';

// A model call's messages as a chat: each message with its role as a visible label, tool
// calls with their name and arguments, tool results, images and long texts collapsed.

const TEXT_LIMIT = 1200;

const ROLE_STYLE: Record<string, { label: string; frame: string; chip: string }> = {
  system: {
    label: 'System',
    frame: 'border-border bg-surface',
    chip: 'bg-surface-2 text-fg',
  },
  developer: {
    label: 'Developer',
    frame: 'border-border bg-surface',
    chip: 'bg-surface-2 text-fg',
  },
  user: {
    label: 'User',
    frame: 'border-sky-300 bg-sky-50/70 dark:border-sky-800 dark:bg-sky-950/40',
    chip: 'bg-sky-100 text-sky-900 dark:bg-sky-900/60 dark:text-sky-100',
  },
  assistant: {
    label: 'Assistant',
    frame: 'border-emerald-300 bg-emerald-50/60 dark:border-emerald-800 dark:bg-emerald-950/40',
    chip: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/60 dark:text-emerald-100',
  },
  tool: {
    label: 'Tool',
    frame: 'border-amber-300 bg-amber-50/60 dark:border-amber-800 dark:bg-amber-950/40',
    chip: 'bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100',
  },
};
ROLE_STYLE.function = { ...ROLE_STYLE.tool, label: 'Function' };
ROLE_STYLE.model = { ...ROLE_STYLE.assistant, label: 'Model' };

function roleStyle(role: string) {
  return ROLE_STYLE[role] ?? { label: role, frame: 'border-border bg-surface', chip: 'bg-surface-2 text-fg' };
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** An image, collapsed until asked for: a data URL can be megabytes, a remote one a tracker. */
function ImagePart({ src, mediaType }: { src: string | null; mediaType: string | null }) {
  const [open, setOpen] = useState(false);
  const inline = src?.startsWith('data:') ?? false;
  const type = mediaType ?? /^data:([^;,]+)/.exec(src ?? '')?.[1] ?? null;
  const about = [type, inline && src ? formatBytes(Math.round(((src.length - src.indexOf(',') - 1) * 3) / 4)) : null, !inline && src ? hostOf(src) : null]
    .filter(Boolean)
    .join(', ');
  return (
    <div className="rounded border border-border bg-bg px-2 py-1.5 text-xs">
      <div className="flex items-center gap-2">
        <span className="font-medium">Image</span>
        {about && <span className="text-muted">{about}</span>}
        {src ? (
          <button type="button" aria-expanded={open} onClick={() => setOpen((o) => !o)} className="ml-auto font-medium text-accent hover:underline">
            {open ? 'Hide image' : 'Show image'}
          </button>
        ) : (
          <span className="ml-auto text-muted">not included in the trace</span>
        )}
      </div>
      {open && src && (
        // A data: URL or the remote address the trace names, shown only when asked: next/image cannot size either.
        // eslint-disable-next-line @next/next/no-img-element
        <img src={src} alt="Image sent in the conversation" className="mt-2 max-h-96 max-w-full rounded border border-border" referrerPolicy="no-referrer" />
      )}
    </div>
  );
}

function ValueBlock({ value, label }: { value: JsonValue; label: string }) {
  if (typeof value === 'string') return <LongText text={value} limit={TEXT_LIMIT} mono className="rounded bg-bg px-2 py-1.5" />;
  return <JsonViewer label={label} value={value} openDepth={2} />;
}

function PartView({ part }: { part: Part }) {
  switch (part.kind) {
    case 'text':
      return part.text === '' ? <p className="text-muted italic">(empty)</p> : <LongText text={part.text} limit={TEXT_LIMIT} />;
    case 'reasoning':
      return (
        <div className="border-l-2 border-fuchsia-400 pl-2 text-muted dark:border-fuchsia-500">
          <span className="text-xs font-semibold">Reasoning</span>
          <LongText text={part.text} limit={400} className="italic" />
        </div>
      );
    case 'image':
      return <ImagePart src={part.src} mediaType={part.mediaType} />;
    case 'tool_call':
      return (
        <div className="space-y-1 rounded border border-border bg-bg p-2" data-testid="chat-tool-call">
          <div className="flex flex-wrap items-baseline gap-x-2 text-xs">
            <span className="font-semibold">Tool call</span>
            <code className="font-mono font-medium text-accent">{part.name}</code>
            {part.id && <span className="font-mono text-muted">{part.id}</span>}
          </div>
          <ValueBlock value={part.arguments} label="Arguments" />
        </div>
      );
    case 'tool_result':
      return (
        <div
          className={`space-y-1 rounded border p-2 ${part.isError ? 'border-red-300 bg-red-50 dark:border-red-800 dark:bg-red-950/50' : 'border-border bg-bg'}`}
          data-testid="chat-tool-result"
        >
          <div className="flex flex-wrap items-baseline gap-x-2 text-xs">
            <span className="font-semibold">{part.isError ? 'Tool error' : 'Tool result'}</span>
            {part.name && <code className="font-mono font-medium">{part.name}</code>}
            {part.id && <span className="font-mono text-muted">{part.id}</span>}
          </div>
          {part.content === null ? <p className="text-xs text-muted italic">no content</p> : <ValueBlock value={part.content} label="Result" />}
        </div>
      );
    case 'data':
      return <JsonViewer label="Content" value={part.value} />;
  }
}

function MessageView({ message }: { message: Message }) {
  const style = roleStyle(message.role);
  return (
    <li className={`rounded-md border px-3 py-2 text-sm ${style.frame}`} data-testid="chat-message" data-role={message.role}>
      <div className="mb-1 flex items-center gap-2">
        <span className={`rounded px-1.5 py-0.5 text-[11px] font-semibold tracking-wide uppercase ${style.chip}`}>{style.label}</span>
        {message.name && <span className="font-mono text-xs text-muted">{message.name}</span>}
      </div>
      <div className="space-y-2">
        {message.parts.length === 0 ? <p className="text-muted italic">(empty)</p> : message.parts.map((p, i) => <PartView key={i} part={p} />)}
      </div>
    </li>
  );
}

/** Messages in order; very long conversations show their last ones, the earlier ones a click away. */
export function Conversation({ messages, label }: { messages: Message[]; label: string }) {
  const LAST = 30;
  const [all, setAll] = useState(messages.length <= LAST);
  const shown = all ? messages : messages.slice(-LAST);
  return (
    <div>
      {!all && (
        <button type="button" onClick={() => setAll(true)} className="mb-2 text-xs font-medium text-accent hover:underline">
          Show {messages.length - LAST} earlier messages
        </button>
      )}
      <ol aria-label={label} className="space-y-2">
        {shown.map((m, i) => (
          <MessageView key={i} message={m} />
        ))}
      </ol>
    </div>
  );
}
