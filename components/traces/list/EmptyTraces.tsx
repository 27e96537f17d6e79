import { CopyButton } from '@/components/ui/CopyButton';

// A complete, valid first trace: one agent span, one decision inside it, one event.
const EXAMPLE_BODY = `{
  "traces": [{
    "id": "my-first-trace",
    "name": "Answer a question",
    "status": "COMPLETED",
    "tags": ["getting-started"],
    "startedAt": "2026-01-01T12:00:00.000Z",
    "endedAt": "2026-01-01T12:00:02.000Z",
    "spans": [{
      "id": "agent", "name": "research agent", "type": "AGENT",
      "status": "COMPLETED", "startedAt": "2026-01-01T12:00:00.000Z", "durationMs": 2000
    }],
    "decisionPoints": [{
      "id": "pick-tool", "type": "TOOL_SELECTION", "parentSpanId": "agent",
      "reasoning": "The question needs current data.",
      "chosen": "web_search", "alternatives": ["calculator", "answer_directly"],
      "timestamp": "2026-01-01T12:00:00.400Z"
    }],
    "events": [{
      "id": "done", "type": "CUSTOM", "name": "answer sent", "spanId": "agent",
      "timestamp": "2026-01-01T12:00:01.900Z"
    }]
  }]
}`;

export function curlExample(origin: string): string {
  return `curl -X POST ${origin}/api/traces \\
  -H "Authorization: Bearer $CROSSROADS_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '${EXAMPLE_BODY}'`;
}

export function EmptyTraces({ origin }: { origin: string }) {
  const command = curlExample(origin);
  return (
    <section aria-labelledby="empty-title" className="rounded-lg border border-dashed border-border-strong bg-surface p-8">
      <h2 id="empty-title" className="text-lg font-semibold">
        No traces yet
      </h2>
      <p className="mt-1 max-w-2xl text-muted">
        Send your agent&apos;s first trace to <code className="font-mono text-fg">POST /api/traces</code> with an API key
        from the server&apos;s <code className="font-mono text-fg">API_KEYS</code>. Traces appear here as soon as they are stored.
      </p>
      <div className="relative mt-4 max-w-4xl">
        <div className="absolute top-2 right-2">
          <CopyButton text={command} label="Copy command" className="bg-bg" />
        </div>
        <pre
          tabIndex={0}
          aria-label="Example command that sends a first trace"
          className="max-h-80 overflow-auto rounded-md border border-border bg-bg p-4 font-mono text-xs leading-5 text-fg"
        >
          {command}
        </pre>
      </div>
    </section>
  );
}
