'use client';

import Link from 'next/link';
import { CopyButton } from '@/components/ui/CopyButton';
import { useFirstRun } from '@/components/app/FirstRun';
import { LoadDemoButton } from './DemoData';

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

export function curlExample(origin: string, key = '$CROSSROADS_API_KEY'): string {
  return `curl -X POST ${origin}/api/traces \\
  -H "Authorization: Bearer ${key}" \\
  -H "Content-Type: application/json" \\
  -d '${EXAMPLE_BODY}'`;
}

/** The standard OpenTelemetry exporter variables, pointed at this server (docs/frameworks.md). */
export function otelVariables(origin: string, key = '$CROSSROADS_API_KEY'): string {
  return `export OTEL_EXPORTER_OTLP_ENDPOINT=${origin}/api/otel
export OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer%20${key}"
export OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf`;
}

function Snippet({ text, label, copy }: { text: string; label: string; copy: string }) {
  return (
    <div className="relative mt-2 max-w-4xl">
      <div className="absolute top-2 right-2">
        <CopyButton text={text} label={copy} className="bg-bg" />
      </div>
      <pre
        tabIndex={0}
        aria-label={label}
        className="max-h-80 overflow-auto rounded-md border border-border bg-bg p-4 pr-28 font-mono text-xs leading-5 text-fg"
      >
        {text}
      </pre>
    </div>
  );
}

/** Which key to send, told truthfully for this server's mode and the reader's role. */
function KeyAdvice() {
  const { mode, admin } = useFirstRun();
  if (mode === 'open') {
    return (
      <p data-testid="key-advice">
        This server is in <strong>open mode</strong> (no credentials configured): any non-empty key works, for example{' '}
        <code className="font-mono text-fg">Bearer dev</code>, and reading needs none.
      </p>
    );
  }
  if (admin) {
    return (
      <p data-testid="key-advice">
        Send with an API key that has the <code className="font-mono text-fg">ingest</code> scope:{' '}
        <Link href="/settings/api-keys" className="font-medium text-accent hover:underline">
          make one in Settings, API keys
        </Link>{' '}
        (or use one of the server&apos;s <code className="font-mono text-fg">API_KEYS</code>, if it has any).
      </p>
    );
  }
  return (
    <p data-testid="key-advice">
      Send with an API key that has the <code className="font-mono text-fg">ingest</code> scope: an admin makes one in Settings, API keys.
    </p>
  );
}

export function EmptyTraces({ origin }: { origin: string }) {
  const { mode } = useFirstRun();
  const key = mode === 'open' ? 'dev' : '$CROSSROADS_API_KEY';
  return (
    <section aria-labelledby="empty-title" data-testid="empty-traces" className="space-y-5 rounded-lg border border-dashed border-border-strong bg-surface p-4 sm:p-8">
      <div>
        <h2 id="empty-title" className="text-lg font-semibold">
          No traces yet
        </h2>
        <div className="mt-1 max-w-3xl space-y-2 text-muted">
          <p>Traces appear here as soon as your agent sends them. Three ways to start:</p>
          <KeyAdvice />
        </div>
      </div>
      <div>
        <h3 className="font-semibold">Explore first</h3>
        <p className="mt-1 max-w-3xl text-sm text-muted">
          A realistic set of agent runs (conversations, tool choices, routing with confidences, errors, escalations and feedback) to
          look around with. Also <code className="font-mono text-fg">npm run demo</code> on the server.
        </p>
        <div className="mt-2">
          <LoadDemoButton />
        </div>
      </div>
      <div>
        <h3 className="font-semibold">OpenTelemetry, no code changes</h3>
        <p className="mt-1 max-w-3xl text-sm text-muted">
          Set these for any OpenTelemetry SDK, then run your agent. Vercel AI SDK, LangChain/LangGraph, OpenLLMetry, Mastra, Langfuse,
          OpenAI Agents and Pydantic AI each have a short setup in <code className="font-mono text-fg">docs/frameworks.md</code>.
        </p>
        <Snippet text={otelVariables(origin, key)} label="OpenTelemetry environment variables for this server" copy="Copy variables" />
      </div>
      <div>
        <h3 className="font-semibold">Or the JSON API</h3>
        <p className="mt-1 max-w-3xl text-sm text-muted">
          A first trace with one span, one decision and one event to <code className="font-mono text-fg">POST /api/traces</code>:
        </p>
        <Snippet text={curlExample(origin, key)} label="Example command that sends a first trace" copy="Copy command" />
      </div>
    </section>
  );
}
