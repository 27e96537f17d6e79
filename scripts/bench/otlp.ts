// The OTLP ingest scenario (issue 10, "Speed"): the same generated agent runs sent as
// OTLP/HTTP protobuf requests of 1,000 spans to POST /api/otel/v1/traces, encoded by
// OpenTelemetry's own serializer (the one @opentelemetry/exporter-trace-otlp-proto
// uses), and as JSON batches of the same runs to POST /api/traces, with the same number
// of clients, each on an empty database. Per path: spans/s, records/s, server RSS, and
// the CPU the server and PostgreSQL spent per span (from /proc). The stored rows are
// counted afterwards and one trace is read back, so a path that stores nothing fails.
import os from 'node:os';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { treeCpuMs } from './cpu';
import type { RawDb } from './database';
import { runClosedLoop, type Task } from './http';
import { renderOtlp, type OtlpRequestSet, type RequestContent } from './otlp-requests';
import { sampleWaits } from './pg-waits';
import { markdownTable } from './report';
import { IdSource } from './rows';
import { formatLine, type Bounds, type Ctx, type ScenarioResult } from './scenarios';
import { truncateTraces } from './seed';
import { summarize } from './stats';

export type OtlpPath = 'otlp' | 'json';

// ---------- sending ----------

/** Everything the server acknowledged, warm-up included: what the database must hold afterwards. */
interface Sent {
  requests: number;
  traces: number;
  spans: number;
  decisions: number;
  events: number;
  last?: { ids: string[]; content: RequestContent };
}

const emptySent = (): Sent => ({ requests: 0, traces: 0, spans: 0, decisions: 0, events: 0 });

function acknowledge(sent: Sent, c: RequestContent, ids: string[]): void {
  sent.requests++;
  sent.traces += c.traces;
  sent.spans += c.spans;
  sent.decisions += c.decisions;
  sent.events += c.events;
  sent.last = { ids, content: c };
}

function otlpTask(ctx: Ctx, sets: OtlpRequestSet[], ids: IdSource, sent: Sent): Task {
  const headers = { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/x-protobuf' };
  return async (_w, seq) => {
    const set = sets[Math.abs(seq) % sets.length];
    const fresh = ids.next(set.content.traces);
    const body = renderOtlp(set.otlp, fresh);
    const r = await ctx.http.request('POST', '/api/otel/v1/traces', { body, headers });
    if (r.status !== 200) return { ok: false, ms: r.ms, error: `HTTP ${r.status} ${r.body.toString().slice(0, 300)}` };
    const partial = ProtobufTraceSerializer.deserializeResponse(new Uint8Array(r.body)).partialSuccess;
    if (partial && Number(partial.rejectedSpans ?? 0) > 0) {
      return { ok: false, ms: r.ms, error: `partial success: ${partial.rejectedSpans} spans rejected: ${partial.errorMessage}` };
    }
    acknowledge(sent, set.content, fresh);
    return { ok: true, ms: r.ms, records: set.content.records };
  };
}

function jsonTask(ctx: Ctx, sets: OtlpRequestSet[], ids: IdSource, sent: Sent): Task {
  const headers = { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' };
  return async (_w, seq) => {
    const set = sets[Math.abs(seq) % sets.length];
    const fresh = ids.next(set.content.traces);
    const r = await ctx.http.request('POST', '/api/traces', { body: set.json.body.render(fresh), headers });
    if (r.status !== 200) return { ok: false, ms: r.ms, error: `HTTP ${r.status} ${r.body.toString().slice(0, 300)}` };
    acknowledge(sent, set.content, fresh);
    return { ok: true, ms: r.ms, records: set.content.records };
  };
}

// ---------- checking what was stored ----------

async function storedCounts(raw: RawDb): Promise<{ traces: number; spans: number; decisions: number; events: number }> {
  const conn = await raw.connect();
  try {
    const [row] = await conn.query<{ traces: number; spans: number; decisions: number; events: number }>(
      `SELECT (SELECT count(*) FROM "Trace")::int AS traces, (SELECT count(*) FROM "Span")::int AS spans,
              (SELECT count(*) FROM "DecisionPoint")::int AS decisions, (SELECT count(*) FROM "Event")::int AS events`,
    );
    return row;
  } finally {
    await conn.release();
  }
}

/**
 * Problems with what the database holds after a path ran: every acknowledged trace,
 * span, decision and event stored, and one trace read back through the API. Spans and
 * traces missing are failures; other differences are reported (the mapper decides them).
 */
async function verify(ctx: Ctx, raw: RawDb, path: OtlpPath, sent: Sent): Promise<{ failures: string[]; notes: string[]; checked: string }> {
  const failures: string[] = [];
  const notes: string[] = [];
  const got = await storedCounts(raw);
  for (const k of ['traces', 'spans'] as const) {
    if (got[k] !== sent[k]) failures.push(`${got[k]} ${k} stored, ${sent[k]} acknowledged`);
  }
  for (const k of ['decisions', 'events'] as const) {
    if (got[k] !== sent[k]) notes.push(`${got[k]} ${k} stored, ${sent[k]} generated`);
  }
  let checked = `${got.traces} traces, ${got.spans} spans, ${got.decisions} decisions, ${got.events} events stored`;
  if (sent.last) {
    const k = sent.last.ids.length - 1;
    const want = sent.last.content.perTrace[k];
    const r = await ctx.http.request('GET', `/api/traces/${sent.last.ids[k]}`);
    if (r.status !== 200) failures.push(`GET /api/traces/{id} of the last trace sent: HTTP ${r.status}`);
    else {
      type Detail = { trace?: { status?: string; totalTokens?: number; spans?: unknown[]; decisionPoints?: { inferred?: boolean }[]; events?: unknown[] } };
      const t = (JSON.parse(r.body.toString()) as Detail).trace;
      const spans = t?.spans?.length ?? 0;
      const decisions = t?.decisionPoints?.length ?? 0;
      const events = t?.events?.length ?? 0;
      checked += `; last trace read back: ${spans}/${want.spans} spans, ${decisions}/${want.decisions} decisions, ${events}/${want.events} events, status ${t?.status}, ${t?.totalTokens} tokens`;
      if (spans !== want.spans) failures.push(`last trace has ${spans} spans through the API, ${want.spans} sent`);
      if (decisions !== want.decisions || events !== want.events) notes.push(`last trace: ${decisions} decisions and ${events} events, expected ${want.decisions} and ${want.events}`);
      if (path === 'otlp' && decisions && !t!.decisionPoints!.every((d) => d.inferred === true)) notes.push('OTLP decisions not marked inferred');
      if (t?.status !== want.status) notes.push(`last trace status ${t?.status}, expected ${want.status}`);
      if (t?.totalTokens !== want.tokens) notes.push(`last trace totalTokens ${t?.totalTokens}, expected ${want.tokens}`);
    }
  }
  return { failures, notes, checked };
}

// ---------- the scenario ----------

export interface OtlpFigures {
  path: OtlpPath;
  spansPerRequest: number;
  recordsPerRequest: number;
  bytesPerRequest: number;
  spansPerSecond: number;
  serverCpuMsPerSpan: number;
  dbCpuMsPerSpan?: number;
  /** What the database held afterwards and what the API returned for one trace. */
  verified: string;
  /** False when acknowledged spans or traces are missing: the row's rate means nothing. */
  storedAll: boolean;
  /** PostgreSQL sessions during the run, by statement and wait event (share of samples). */
  waits: string;
}

const MB = 2 ** 20;

export interface OtlpRunOptions {
  raw: RawDb;
  /** Which paths run (both by default; one alone to profile it). */
  paths: OtlpPath[];
  /** PostgreSQL's postmaster, for the database's CPU per span. */
  dbPid?: number;
  warmupPerClient: number;
}

async function runPath(ctx: Ctx, o: OtlpRunOptions, sets: OtlpRequestSet[], path: OtlpPath, clients: number, bounds: Bounds): Promise<ScenarioResult> {
  await truncateTraces(o.raw);
  const sent = emptySent();
  const ids = new IdSource(ctx.seed * 4099 + clients * 13 + (path === 'otlp' ? 1 : 2));
  const task = path === 'otlp' ? otlpTask(ctx, sets, ids, sent) : jsonTask(ctx, sets, ids, sent);
  // Warm-up outside the CPU and time window (JIT, connections, the first statements' plans).
  const warm = await runClosedLoop(task, { clients, maxRequests: clients * o.warmupPerClient, maxMs: 300_000, warmupPerClient: 0, maxErrors: 1 });
  if (warm.errors) throw new Error(`${path} warm-up failed: ${warm.firstError}`);
  await ctx.diag?.reset();
  ctx.server.resetPeak();
  const cpu0 = treeCpuMs(ctx.server.pid);
  const db0 = o.dbPid ? treeCpuMs(o.dbPid) : undefined;
  const waits = sampleWaits(o.raw);
  const r = await runClosedLoop(task, { clients, ...bounds, warmupPerClient: 0 });
  const waited = await waits.stop();
  const serverCpu = treeCpuMs(ctx.server.pid) - cpu0;
  const dbCpu = o.dbPid && db0 !== undefined ? treeCpuMs(o.dbPid) - db0 : undefined;
  const rss = ctx.server.peakRss() / MB;
  const top = ctx.diag ? await ctx.diag.top(3) : undefined;
  const check = await verify(ctx, o.raw, path, sent);

  const c = sets[0].content;
  const spans = r.latencies.length * c.spans; // every request has exactly spansPerRequest spans
  const bytes = sets.reduce((n, s) => n + (path === 'otlp' ? s.otlp.body.length : s.json.body.bytes), 0) / sets.length;
  const result: ScenarioResult = {
    db: ctx.db,
    group: 'otlp',
    name: path === 'otlp' ? `OTLP protobuf, ${c.spans} spans/request` : `JSON /api/traces, same runs`,
    clients,
    batch: c.traces,
    summary: summarize(r.latencies, r.wallMs, r.errors, r.records),
    serverRssMb: rss,
    load1: os.loadavg()[0],
    topStatements: top,
    otlp: {
      path,
      spansPerRequest: c.spans,
      recordsPerRequest: c.records,
      bytesPerRequest: Math.round(bytes),
      spansPerSecond: r.wallMs > 0 ? spans / (r.wallMs / 1000) : NaN,
      serverCpuMsPerSpan: spans ? serverCpu / spans : NaN,
      dbCpuMsPerSpan: dbCpu !== undefined && spans ? dbCpu / spans : undefined,
      verified: check.checked,
      storedAll: check.failures.length === 0,
      waits: waited,
    },
  };
  const notes = [...check.failures.map((f) => `NOT STORED: ${f}`), ...check.notes, r.errors ? `first error: ${r.firstError}` : ''].filter(Boolean);
  if (notes.length) result.note = notes.join('; ');
  ctx.log(formatLine(result));
  ctx.log(
    `    ${Math.round(result.otlp!.spansPerSecond)} spans/s, server CPU ${result.otlp!.serverCpuMsPerSpan.toFixed(3)} ms/span` +
      `${dbCpu !== undefined ? `, PostgreSQL CPU ${result.otlp!.dbCpuMsPerSpan!.toFixed(3)} ms/span` : ''}; ${check.checked}`,
  );
  ctx.log(`    PostgreSQL sessions: ${waited}`);
  if (notes.length) ctx.log(`    ${result.note}`);
  return result;
}

/**
 * Both paths at each client count. The order alternates between client counts (OTLP
 * first, then JSON first), so a drift in the machine's load does not favour one path.
 */
export async function otlpScenario(ctx: Ctx, o: OtlpRunOptions, sets: OtlpRequestSet[], clientCounts: number[], bounds: Bounds): Promise<ScenarioResult[]> {
  const out: ScenarioResult[] = [];
  for (const [i, clients] of clientCounts.entries()) {
    const order = (i % 2 === 0 ? ['otlp', 'json'] : ['json', 'otlp']).filter((p) => o.paths.includes(p as OtlpPath)) as OtlpPath[];
    for (const path of order) out.push(await runPath(ctx, o, sets, path, clients, bounds));
  }
  await truncateTraces(o.raw);
  return out;
}

// ---------- report ----------

const f0 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : Math.round(n).toLocaleString('en-US'));
const f3 = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(3));

/** The OTLP comparison, one row per database and client count. */
export function otlpTable(results: ScenarioResult[]): string {
  const rows: string[][] = [];
  for (const o of results.filter((r) => r.otlp?.path === 'otlp')) {
    const j = results.find((r) => r.otlp?.path === 'json' && r.db === o.db && r.clients === o.clients);
    const oo = o.otlp!;
    const jo = j?.otlp;
    const jRec = j?.summary.recordsPerSecond;
    rows.push([
      o.db,
      String(o.clients),
      `${oo.spansPerRequest} spans, ${(oo.bytesPerRequest / MB).toFixed(2)} MB / ${jo ? (jo.bytesPerRequest / MB).toFixed(2) : '-'} MB`,
      f0(oo.spansPerSecond),
      f0(o.summary.recordsPerSecond),
      f0(jRec),
      jRec ? (oo.spansPerSecond / jRec).toFixed(2) : '-',
      j ? (o.summary.perSecond / j.summary.perSecond).toFixed(2) : '-',
      `${f0(o.summary.p95Ms)} / ${f0(j?.summary.p95Ms)}`,
      `${f0(o.serverRssMb)} / ${f0(j?.serverRssMb)}`,
      `${f3(oo.serverCpuMsPerSpan)} / ${f3(jo?.serverCpuMsPerSpan)}`,
      `${f3(oo.dbCpuMsPerSpan)} / ${f3(jo?.dbCpuMsPerSpan)}`,
      oo.storedAll && (jo?.storedAll ?? true) ? 'yes' : 'NO',
    ]);
  }
  return markdownTable(
    [
      'db',
      'clients',
      'request (OTLP / JSON)',
      'OTLP spans/s',
      'OTLP records/s',
      'JSON records/s',
      'OTLP spans/s ÷ JSON records/s',
      'req/s ratio',
      'p95 ms OTLP / JSON',
      'server RSS MB OTLP / JSON',
      'server CPU ms/span OTLP / JSON',
      'PostgreSQL CPU ms/span OTLP / JSON',
      'all stored',
    ],
    rows,
  );
}
