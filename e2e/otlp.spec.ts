// OTLP ingest as a user meets it (issue 10): an agent run made with the Vercel AI SDK,
// telemetry on, exported by the OpenTelemetry Node SDK's protobuf exporter (gzip, a
// bearer key) to the production server, each span as it ends. It then opens in the
// viewer with its span tree and its inferred tool-selection decision.
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { E2E_API_KEY } from '../playwright.config';
import { runId } from './fixtures';
import { runWeatherAgent, WEATHER_RUN } from './otlp-agent';
import { expect, open, test } from './viewer-helpers';

const FUNCTION_ID = `weather-agent-${runId()}`;
const SCREENSHOT = '/tmp/otlp-detail.png';

/** The spans the SDK finished (and exported), in the order they ended. */
let sent: ReadableSpan[] = [];

test.beforeAll(async () => {
  const baseURL = test.info().project.use.baseURL;
  // What NodeTracerProvider.register() installs: the AI SDK nests its spans through it.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const memory = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'e2e-weather-app' }),
    spanProcessors: [
      new SimpleSpanProcessor(
        new OTLPTraceExporter({
          url: `${baseURL}/api/otel/v1/traces`,
          compression: CompressionAlgorithm.GZIP,
          headers: { Authorization: `Bearer ${E2E_API_KEY}` },
        }),
      ),
      new SimpleSpanProcessor(memory),
    ],
  });
  try {
    const run = await runWeatherAgent(provider.getTracer('e2e-otlp'), FUNCTION_ID);
    expect(run.text).toBe(WEATHER_RUN.answer);
    // Rejects when an export failed (the server refused or was unreachable).
    await provider.forceFlush();
    sent = memory.getFinishedSpans();
  } finally {
    await provider.shutdown();
    context.disable();
  }
});

test('an agent run sent over OTLP shows its span tree and its inferred tool selection', async ({ page }) => {
  expect(sent.map((s) => s.name)).toEqual(['ai.generateText.doGenerate', 'ai.toolCall', 'ai.generateText.doGenerate', 'ai.generateText']);
  const [callTools, toolCall, answer, root] = sent;
  const id = (s: ReadableSpan) => s.spanContext().spanId;
  const traceId = root.spanContext().traceId;

  await open(page, `/traces/${traceId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(FUNCTION_ID);
  // Completed: its root span came, last, and ended well.
  await expect(page.getByRole('heading', { level: 1 }).locator('..')).toContainText('Completed');
  const stat = (label: string) => page.locator(`dt:text-is("${label}") + dd`);
  await expect(stat('Spans')).toHaveText('4');
  await expect(stat('Decisions')).toHaveText('1');
  // The wrapper span repeats its model calls' usage; the trace counts it once.
  await expect(stat('Tokens')).toHaveText(String(WEATHER_RUN.tokens[0] + WEATHER_RUN.tokens[1]));

  // The span tree: the SDK's span ids, nested as the SDK nested them.
  const tree = page.getByRole('tree');
  const row = (key: string) => tree.locator(`[data-key="${key}"]`);
  // The tool span is shown under its tool's name.
  const spans: Array<[ReadableSpan, string, string]> = [
    [root, 'ai.generateText', '1'],
    [callTools, 'ai.generateText.doGenerate', '2'],
    [toolCall, WEATHER_RUN.chosenTool, '2'],
    [answer, 'ai.generateText.doGenerate', '2'],
  ];
  for (const [span, name, level] of spans) {
    const spanRow = row(`s:${id(span)}`);
    await expect(spanRow.getByText(name, { exact: true })).toBeVisible();
    await expect(spanRow).toHaveAttribute('aria-level', level);
  }
  // The inferred decision sits under the model call that made the choice.
  const decisionRow = row(`d:${id(callTools)}:tool_selection`);
  await expect(decisionRow).toHaveAttribute('aria-level', '3');
  await expect(tree.getByRole('treeitem')).toHaveCount(5);
  await page.screenshot({ path: test.info().outputPath('otlp-detail-tree.png') });

  // The decisions view: the tool called, the tools offered but not called, marked inferred.
  await page.getByRole('tab', { name: /Decisions/ }).click();
  await expect(page).toHaveURL(/tab=decisions/);
  const cards = page.getByTestId('decision-card');
  await expect(cards).toHaveCount(1);
  const card = cards.first();
  await expect(card).toContainText('Tool selection');
  await expect(card.getByTestId('decision-inferred')).toHaveText('Inferred');
  await expect(card).toContainText(WEATHER_RUN.reasoning);
  await expect(card).toContainText('in ai.generateText.doGenerate');
  const chosen = card.getByTestId('decision-chosen');
  await expect(chosen).toContainText(WEATHER_RUN.chosenTool);
  await expect(chosen).toContainText('Lyon');
  await expect(chosen).not.toContainText('searchWeb');
  const alternatives = card.getByTestId('decision-alternatives');
  await expect(alternatives).toContainText('Not chosen (2)');
  for (const alt of WEATHER_RUN.alternatives) await expect(alternatives).toContainText(alt.tool);
  await expect(alternatives).not.toContainText(WEATHER_RUN.chosenTool);

  // Its details name what it was inferred from.
  await card.getByRole('button', { name: 'Details' }).click();
  const panel = page.getByTestId('details-panel');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('Tool selection');
  await expect(panel.getByRole('region', { name: 'Context snapshot' })).toContainText('ai.response.toolCalls');
  await page.screenshot({ path: SCREENSHOT });
});
