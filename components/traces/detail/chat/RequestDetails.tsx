'use client';

import { Fragment } from 'react';
import { parameterText, type Parameter, type RequestDetails as Details, type ToolDefinition } from '@/lib/features/conversation/shared';
import { JsonViewer } from '@/components/json/JsonViewer';
import { LongText } from '@/components/ui/LongText';

// A model call's request beside its chat: the parameters as a table, each offered tool
// folded to its name and description (schema on opening), and the request's other keys
// as JSON, so that none of the input is only in the JSON view.

/** An attribute key that may wrap after its dots rather than inside a word. */
function dotted(key: string) {
  return key.split('.').map((part, i, all) => (
    <Fragment key={i}>
      {part}
      {i < all.length - 1 && (
        <>
          .<wbr />
        </>
      )}
    </Fragment>
  ));
}

function ParameterTable({ parameters }: { parameters: Parameter[] }) {
  return (
    <table className="w-full border-separate border-spacing-0 overflow-hidden rounded-md border border-border bg-surface text-xs" data-testid="request-parameters">
      <caption className="mb-1 text-left text-xs font-semibold text-fg">Parameters</caption>
      <thead>
        <tr className="text-left text-[11px] text-muted">
          <th scope="col" className="w-0 border-b border-border px-2 py-1 font-medium">
            Parameter
          </th>
          <th scope="col" className="border-b border-border px-2 py-1 font-medium">
            Value
          </th>
        </tr>
      </thead>
      <tbody>
        {parameters.map((p) => (
          <tr key={p.name} className="align-top [&:not(:last-child)>*]:border-b [&:not(:last-child)>*]:border-border">
            <th scope="row" className="px-2 py-1 text-left font-normal">
              <code className="font-mono whitespace-nowrap text-fg">{p.name}</code>
            </th>
            <td className="w-full max-w-0 px-2 py-1">
              <LongText text={parameterText(p.value)} limit={160} mono />
              {p.from !== 'input' && (
                <span className="block text-[10px] text-muted">
                  from <code className="font-mono">{dotted(p.from)}</code>
                </span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ToolView({ tool }: { tool: ToolDefinition }) {
  return (
    <details className="group rounded-md border border-border bg-surface text-xs" data-testid="request-tool">
      <summary className="cursor-pointer px-2 py-1.5 marker:text-muted">
        <code className="font-mono font-medium text-accent">{tool.name}</code>
        {tool.kind && <span className="ml-2 text-[11px] text-muted">{tool.kind}</span>}
        {tool.description && <span className="mt-0.5 block text-muted group-open:text-fg line-clamp-2 group-open:line-clamp-none">{tool.description}</span>}
      </summary>
      <div className="space-y-2 border-t border-border p-2">
        {tool.schema !== null && <JsonViewer label={`${tool.name} schema`} value={tool.schema} openDepth={2} />}
        {tool.other && <JsonViewer label={`${tool.name} settings`} value={tool.other} openDepth={1} />}
        {tool.schema === null && !tool.other && <p className="text-muted italic">No schema recorded.</p>}
      </div>
    </details>
  );
}

/** The parameters, tools and other keys of a model call's request; nothing when it has none. */
export function RequestDetails({ details, label }: { details: Details; label: string }) {
  const { parameters, tools, extra } = details;
  if (parameters.length === 0 && tools.length === 0 && extra === null) return null;
  return (
    <div className="min-w-0 space-y-3" data-testid="request-details">
      {parameters.length > 0 && <ParameterTable parameters={parameters} />}
      {tools.length > 0 && (
        <section aria-label={`${label} tools`} className="space-y-1">
          <h5 className="text-xs font-semibold text-fg">
            Tools offered <span className="font-normal text-muted">({tools.length})</span>
          </h5>
          <ul className="space-y-1">
            {tools.map((t, i) => (
              <li key={`${t.name}-${i}`}>
                <ToolView tool={t} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {extra && <JsonViewer label="Additional input" value={extra} openDepth={1} />}
    </div>
  );
}
