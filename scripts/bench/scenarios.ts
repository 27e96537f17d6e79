// The measured scenarios. Each drives the real HTTP endpoints (or, for the raw baseline,
// the same tables directly) with a closed loop of concurrent clients, bounded in
// requests and time, and returns one row of the report.
import { cpuMeter, type CpuPerRequest } from './cpu';
import type { ComparePageFigures } from './compare-page';
import type { PageFigures } from './page';
import { FULL_SHAPE, SEARCH_TERM, SESSION_SIZE, generateTrace, traceId, type TraceShape } from './generate';
import type { HttpClient, RunResult, Task } from './http';
import { runClosedLoop } from './http';
import type { RawDb } from './database';
import type { ExportFigures } from './export';
import type { OtlpFigures } from './otlp';
import { IdSource, TABLES, buildTemplate, type BatchTemplate } from './rows';
import type { RunningServer } from './server';
import { SOAP_HEADERS, queryEnvelope, readEnvelope, resultRows, resultStatus } from './soap';
import os from 'node:os';
import { summarize, type Summary } from './stats';

export type Group = 'ingest' | 'raw' | 'list' | 'detail' | 'page' | 'compare' | 'soap' | 'mixed' | 'otlp' | 'export' | 'retention' | 'search' | 'insights' | 'paths';

export interface StatementStat {
  query: string;
  calls: number;
  meanMs: number;
  totalMs: number;
}

export interface ScenarioResult {
  db: 'pglite' | 'postgres';
  group: Group;
  name: string;
  clients: number;
  /** Traces in the database when the scenario started. */
  storedTraces?: number;
  batch?: number;
  summary: Summary;
  /** Peak RSS of the server process tree during the scenario, MB. */
  serverRssMb?: number;
  /** Ingest: records/s of the API over the best raw baseline with the same batch and clients. */
  vsRaw?: number;
  note?: string;
  /** 1-minute load average when the scenario ended (the machine is shared: read figures with it). */
  load1?: number;
  /** PostgreSQL: the statements that took the most database time (pg_stat_statements). */
  topStatements?: StatementStat[];
  /** Ingest and raw cells: CPU per request (batch) of the server, PostgreSQL and the bench client. */
  cpu?: CpuPerRequest;
  /** The OTLP scenario's own figures (bench/otlp.ts). */
  otlp?: OtlpFigures;
  /** The export scenario's own figures (bench/export.ts). */
  export?: ExportFigures;
  /** The detail page in Chromium (bench/page.ts). */
  page?: PageFigures;
  /** The comparison of two big runs in Chromium (bench/compare-page.ts). */
  comparePage?: ComparePageFigures;
}

export interface PgDiagnostics {
  reset(): Promise<void>;
  top(n: number): Promise<StatementStat[]>;
}

export interface Bounds {
  maxRequests: number;
  maxMs: number;
  warmupPerClient?: number;
}

export interface Ctx {
  db: 'pglite' | 'postgres';
  seed: number;
  http: HttpClient;
  server: RunningServer;
  apiKey: string;
  log: (msg: string) => void;
  diag?: PgDiagnostics;
  storedTraces?: number;
  /** Detail traces read once already in this server's life (the first read is timed apart). */
  firstDetailRead: Set<string>;
  /** PostgreSQL's postmaster, for CPU figures (PGlite runs inside the server). */
  dbPid?: number;
}

const MB = 2 ** 20;

export async function measure(
  ctx: Ctx,
  base: Omit<ScenarioResult, 'db' | 'summary' | 'serverRssMb' | 'topStatements' | 'storedTraces'>,
  run: (onMeasureStart: () => void) => Promise<RunResult>,
): Promise<ScenarioResult> {
  await ctx.diag?.reset();
  ctx.server.resetPeak();
  const meter = base.group === 'ingest' ? cpuMeter({ server: ctx.server.pid, db: ctx.dbPid }) : undefined;
  const r = await run(() => meter?.start());
  const result: ScenarioResult = {
    db: ctx.db,
    storedTraces: ctx.storedTraces,
    ...base,
    summary: summarize(r.latencies, r.wallMs, r.errors, base.group === 'ingest' || base.group === 'mixed' ? r.records : undefined),
    serverRssMb: ctx.server.peakRss() / MB,
    load1: os.loadavg()[0],
    cpu: meter?.perRequest(r.latencies.length + r.errors),
  };
  if (r.errors) result.note = [result.note, `first error: ${r.firstError}`].filter(Boolean).join('; ');
  if (ctx.diag) result.topStatements = await ctx.diag.top(3);
  ctx.log(formatLine(result));
  return result;
}

export function formatLine(r: ScenarioResult): string {
  const s = r.summary;
  const rec = s.recordsPerSecond !== undefined ? ` ${Math.round(s.recordsPerSecond)} rec/s` : '';
  const vs = r.vsRaw !== undefined ? ` (${r.vsRaw.toFixed(2)}x raw)` : '';
  const rss = r.serverRssMb !== undefined ? ` rss ${r.serverRssMb.toFixed(0)} MB` : '';
  return (
    `  ${r.group}/${r.name} c=${r.clients}: n=${s.count} err=${s.errors} ` +
    `p50 ${s.medianMs.toFixed(1)} p95 ${s.p95Ms.toFixed(1)} p99 ${s.p99Ms.toFixed(1)} ms, ${s.perSecond.toFixed(1)} req/s${rec}${vs}${rss}${formatCpu(r.cpu)}`
  );
}

function formatCpu(cpu: CpuPerRequest | undefined): string {
  if (!cpu) return '';
  const part = (label: string, ms?: number) => (ms === undefined ? '' : ` ${label} ${ms.toFixed(0)}`);
  return `; cpu ms/req${part('server', cpu.serverMs)}${part('db', cpu.dbMs)}${part('client', cpu.clientMs)}`;
}

// ---------- ingest ----------

/** A few distinct batches per size, rotated, so the server does not see one body again and again. */
export function ingestTemplates(seed: number, batch: number, count = 3, shape: TraceShape = FULL_SHAPE): BatchTemplate[] {
  return Array.from({ length: count }, (_, k) =>
    buildTemplate(Array.from({ length: batch }, (_, i) => generateTrace({ seed, index: 5_000_000 + k * batch + i, shape }))),
  );
}

function ingestTask(ctx: Ctx, templates: BatchTemplate[], ids: IdSource): Task {
  const headers = { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' };
  return async (_w, seq) => {
    const tpl = templates[Math.abs(seq) % templates.length];
    const body = tpl.body.render(ids.next(tpl.traces));
    const r = await ctx.http.request('POST', '/api/traces', { body, headers });
    if (r.status !== 200) return { ok: false, ms: r.ms, error: `HTTP ${r.status} ${r.body.toString().slice(0, 200)}` };
    return { ok: true, ms: r.ms, records: tpl.records };
  };
}

export async function ingestScenario(ctx: Ctx, templates: BatchTemplate[], clients: number, bounds: Bounds): Promise<ScenarioResult> {
  const batch = templates[0].traces;
  const ids = new IdSource(ctx.seed * 1000 + batch * 31 + clients);
  return measure(ctx, { group: 'ingest', name: `batch ${batch}`, clients, batch }, (onMeasureStart) =>
    runClosedLoop(ingestTask(ctx, templates, ids), { clients, ...bounds, onMeasureStart }),
  );
}

export type RawMode = 'copy' | 'insert' | 'jsonb';

/**
 * The physical limit: the same records written straight into the same tables, one
 * transaction per batch, by COPY, by multi-row INSERT ... VALUES, or by one INSERT ...
 * SELECT FROM jsonb_to_recordset per table, from `clients` connections.
 */
export async function rawIngest(
  raw: RawDb,
  db: Ctx['db'],
  seed: number,
  mode: RawMode,
  templates: BatchTemplate[],
  clients: number,
  bounds: Bounds,
  log: (msg: string) => void,
  dbPid?: number,
): Promise<ScenarioResult> {
  const batch = templates[0].traces;
  const ids = new IdSource(seed * 7919 + batch * 131 + clients * 17 + ['copy', 'insert', 'jsonb'].indexOf(mode));
  const conns = await Promise.all(Array.from({ length: clients }, () => raw.connect()));
  try {
    // Insert the way the app can best do it on this schema: when the child foreign keys
    // are deferrable (migration trace_status_counts), children first and traces last
    // with the checks at commit, so the per-status counter rows the trace insert locks
    // are held for milliseconds; otherwise parents first.
    const [{ n }] = await conns[0].query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_constraint
        WHERE conname IN ('DecisionPoint_traceId_fkey', 'Span_traceId_fkey', 'Event_traceId_fkey') AND condeferrable`,
    );
    const deferred = n === 3;
    const order = deferred ? (['DecisionPoint', 'Span', 'Event', 'Trace'] as const) : TABLES;
    const task: Task = async (w, seq) => {
      const conn = conns[w];
      const tpl = templates[Math.abs(seq) % templates.length];
      const fresh = ids.next(tpl.traces);
      const started = performance.now();
      await conn.query('BEGIN');
      try {
        if (deferred) {
          await conn.query('SET CONSTRAINTS "DecisionPoint_traceId_fkey", "Span_traceId_fkey", "Event_traceId_fkey" DEFERRED');
        }
        for (const table of order) {
          if (mode === 'copy') await conn.copy(table, tpl.copy[table].render(fresh));
          else if (mode === 'jsonb') await conn.query(tpl.jsonb[table].text, [tpl.jsonb[table].param.render(fresh).toString()]);
          else for (const s of tpl.inserts[table]) await conn.query(s.text, s.params.render(fresh));
        }
        await conn.query('COMMIT');
      } catch (err) {
        await conn.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
      return { ok: true, ms: performance.now() - started, records: tpl.records };
    };
    // PGlite's raw baseline runs in this process: its database CPU is the client's.
    const meter = cpuMeter({ db: dbPid });
    const r = await runClosedLoop(task, { clients, ...bounds, onMeasureStart: () => meter.start() });
    const result: ScenarioResult = {
      db,
      group: 'raw',
      cpu: meter.perRequest(r.latencies.length + r.errors),
      name: `${mode} batch ${batch}`,
      clients,
      batch,
      summary: summarize(r.latencies, r.wallMs, r.errors, r.records),
      note: r.errors ? `first error: ${r.firstError}` : undefined,
      load1: os.loadavg()[0],
    };
    log(formatLine(result));
    return result;
  } finally {
    await Promise.all(conns.map((c) => c.release()));
  }
}

// ---------- list ----------

export interface ListCase {
  name: string;
  path: (seq: number) => string;
}

/** The list cases of the issue: first page, page 500, each filter alone, search. */
export function listCases(seed: number, stored: number): ListCase[] {
  // Sessions among the newest traces, so the filter hits rows a user would look at.
  const newestSession = Math.floor((stored - 1) / SESSION_SIZE);
  const session = (seq: number) => `sess-${seed}-${newestSession - (Math.abs(seq) % 50)}`;
  return [
    { name: 'first page', path: () => '/api/traces?page=1&limit=20' },
    { name: 'page 500', path: () => '/api/traces?page=500&limit=20' },
    { name: 'status=COMPLETED', path: () => '/api/traces?status=COMPLETED' },
    { name: 'status=ERROR', path: () => '/api/traces?status=ERROR' },
    { name: 'status=RUNNING', path: () => '/api/traces?status=RUNNING' },
    { name: 'sessionId', path: (seq) => `/api/traces?sessionId=${session(seq)}` },
    { name: `search "${SEARCH_TERM}"`, path: () => `/api/traces?search=${encodeURIComponent(SEARCH_TERM)}` },
  ];
}

function getTask(ctx: Ctx, path: (seq: number) => string, check?: (body: Buffer) => string | undefined): Task {
  let checked = !check;
  return async (_w, seq) => {
    const r = await ctx.http.request('GET', path(seq));
    if (r.status !== 200) return { ok: false, ms: r.ms, error: `HTTP ${r.status} ${r.body.toString().slice(0, 200)}` };
    if (!checked) {
      checked = true; // parsing every big response would steal CPU from the server
      const problem = check!(r.body);
      if (problem) return { ok: false, ms: r.ms, error: problem };
    }
    return { ok: true, ms: r.ms };
  };
}

export async function listScenario(ctx: Ctx, c: ListCase, clients: number, bounds: Bounds): Promise<ScenarioResult> {
  const check = (body: Buffer) => {
    const j = JSON.parse(body.toString()) as { traces?: unknown[]; total?: number };
    if (!Array.isArray(j.traces) || typeof j.total !== 'number') return 'list response without traces/total';
    if (j.total > 20 && c.name !== 'page 500' && j.traces.length === 0) return 'list returned no rows';
    return undefined;
  };
  return measure(ctx, { group: 'list', name: c.name, clients }, () =>
    runClosedLoop(getTask(ctx, c.path, check), { clients, ...bounds }),
  );
}

// ---------- detail ----------

export const DETAIL_INDEX_BASE = 10_000_000;

export function detailTraceId(seed: number, spans: number): string {
  return traceId(seed, DETAIL_INDEX_BASE + spans);
}

/** The run compared with the `spans`-span detail trace (the compare scenario's B). */
export function compareTraceId(seed: number, spans: number): string {
  return traceId(seed, DETAIL_INDEX_BASE + spans + 1);
}

export async function detailScenario(ctx: Ctx, spans: number, clients: number, bounds: Bounds): Promise<ScenarioResult> {
  const id = detailTraceId(ctx.seed, spans);
  const check = (body: Buffer) => {
    const j = JSON.parse(body.toString()) as { trace?: { spans?: unknown[] } };
    const n = j.trace?.spans?.length;
    return n === spans ? undefined : `detail returned ${n} spans, expected ${spans}`;
  };
  // The first read of a large settled trace builds its span pages and stores them; the
  // measured reads (after each client's warm-up read) send the stored pages.
  const first = ctx.firstDetailRead.has(id) ? undefined : await ctx.http.request('GET', `/api/traces/${id}`);
  ctx.firstDetailRead.add(id);
  const result = await measure(ctx, { group: 'detail', name: `${spans} spans`, clients }, () =>
    runClosedLoop(getTask(ctx, () => `/api/traces/${id}`, check), { clients, ...bounds }),
  );
  if (first) {
    result.note = [`first read ${first.ms.toFixed(0)} ms (HTTP ${first.status})`, result.note].filter(Boolean).join('; ');
    ctx.log(`    ${result.note}`);
  }
  return result;
}

// ---------- SOAP ----------

function soapTask(ctx: Ctx, envelope: string, expectRows?: number): Task {
  let checked = false;
  return async () => {
    const r = await ctx.http.request('POST', '/api/soap', { body: envelope, headers: SOAP_HEADERS });
    if (r.status !== 200) return { ok: false, ms: r.ms, error: `HTTP ${r.status} ${r.body.toString().slice(0, 300)}` };
    const xml = r.body.toString();
    const status = resultStatus(xml);
    if (status !== 1) return { ok: false, ms: r.ms, error: `SOAP status ${status}: ${xml.slice(0, 300)}` };
    if (!checked && expectRows !== undefined) {
      checked = true;
      const rows = resultRows(xml);
      if (rows !== expectRows) return { ok: false, ms: r.ms, error: `SOAP query returned ${rows} rows, expected ${expectRows}` };
    }
    return { ok: true, ms: r.ms };
  };
}

export async function soapReadScenario(ctx: Ctx, spans: number, clients: number, bounds: Bounds): Promise<ScenarioResult> {
  const env = readEnvelope(ctx.apiKey, 'TRACE', [['id', detailTraceId(ctx.seed, spans)]]);
  return measure(ctx, { group: 'soap', name: `read TRACE (${spans} spans)`, clients }, () =>
    runClosedLoop(soapTask(ctx, env), { clients, ...bounds }),
  );
}

export async function soapQueryScenario(ctx: Ctx, rows: number, clients: number, bounds: Bounds): Promise<ScenarioResult> {
  const env = queryEnvelope(ctx.apiKey, 'TRACE', [], rows);
  return measure(ctx, { group: 'soap', name: `query TRACE ${rows} rows`, clients }, () =>
    runClosedLoop(soapTask(ctx, env, rows), { clients, ...bounds }),
  );
}

// ---------- mixed ----------

/** Ingest and list at the same time: what a busy deployment sees. Two rows, one per side. */
export async function mixedScenario(
  ctx: Ctx,
  templates: BatchTemplate[],
  ingestClients: number,
  listClients: number,
  bounds: Bounds,
): Promise<ScenarioResult[]> {
  await ctx.diag?.reset();
  ctx.server.resetPeak();
  const ids = new IdSource(ctx.seed * 31337 + 1);
  const cases = listCases(ctx.seed, ctx.storedTraces ?? 1).filter((c) => c.name !== 'page 500');
  const listTask = getTask(ctx, (seq) => cases[Math.abs(seq) % cases.length].path(seq));
  const [ing, lst] = await Promise.all([
    runClosedLoop(ingestTask(ctx, templates, ids), { clients: ingestClients, ...bounds }),
    runClosedLoop(listTask, { clients: listClients, ...bounds }),
  ]);
  const rss = ctx.server.peakRss() / MB;
  const top = ctx.diag ? await ctx.diag.top(3) : undefined;
  const batch = templates[0].traces;
  const rows: ScenarioResult[] = [
    {
      db: ctx.db,
      group: 'mixed',
      name: `ingest batch ${batch} while listing`,
      clients: ingestClients,
      batch,
      storedTraces: ctx.storedTraces,
      summary: summarize(ing.latencies, ing.wallMs, ing.errors, ing.records),
      serverRssMb: rss,
      note: ing.errors ? `first error: ${ing.firstError}` : undefined,
      topStatements: top,
    },
    {
      db: ctx.db,
      group: 'mixed',
      name: 'list (rotating filters) while ingesting',
      clients: listClients,
      storedTraces: ctx.storedTraces,
      summary: summarize(lst.latencies, lst.wallMs, lst.errors),
      serverRssMb: rss,
      note: lst.errors ? `first error: ${lst.firstError}` : undefined,
    },
  ];
  for (const r of rows) {
    r.load1 = os.loadavg()[0];
    ctx.log(formatLine(r));
  }
  return rows;
}
