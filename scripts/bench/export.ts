// The export scenario (issue 13): GET /api/traces/export of every stored trace, read as
// a stream by one client while the server's RSS (process tree, /proc) is sampled every
// 50 ms. Figures: traces/s and MB/s of the download, RSS before it and its peak during
// it, and RSS at each tenth of the download, so a server whose memory grows with the
// number of traces shows it as a rising row (the same run at two sizes shows it too).
// A slow client (reading at a fixed rate, then hanging up) checks that backpressure holds
// memory flat when the network is the bottleneck, and that the server stops on disconnect.
// Before the first measured export of a server, each kind runs once on a few traces.
import http from 'node:http';
import os from 'node:os';
import type { Ctx, ScenarioResult } from './scenarios';
import { treeRss } from './server';
import { summarize } from './stats';

const MB = 2 ** 20;

export interface ExportFigures {
  traces: number;
  bytes: number;
  seconds: number;
  tracesPerSecond: number;
  mbPerSecond: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  /** RSS (MB) when 10%, 20%, … 100% of the traces had arrived. */
  rssByTenth: number[];
  /** Chunks the client received. */
  chunks: number;
  /** Set for the slow client: it hung up after this many seconds. */
  hungUpAfterS?: number;
  /** PostgreSQL, slow client: the export's statements that ran in the 2 s after it hung up. */
  statementsAfterHangUp?: number;
}

export interface ExportCase {
  name: string;
  query: string;
  /** Bytes per second the client reads at; unset: as fast as it can. */
  rate?: number;
  /** Hang up after this long (the slow client). */
  maxMs?: number;
}

export const EXPORT_CASES: ExportCase[] = [
  { name: 'ndjson', query: 'format=ndjson' },
  { name: 'csv', query: 'format=csv' },
  { name: 'ndjson include=children', query: 'format=ndjson&include=children' },
  { name: 'ndjson, client reading 1 MB/s, hangs up after 15 s', query: 'format=ndjson', rate: MB, maxMs: 15_000 },
];

/** Streams one export, counting lines and bytes, pacing reads when `rate` is set. */
function download(ctx: Ctx, c: ExportCase, expected: number, onProgress: (lines: number) => void): Promise<{ lines: number; bytes: number; chunks: number; ms: number; status: number; hungUp: boolean }> {
  const url = new URL(`/api/traces/export?${c.query}`, ctx.server.baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${ctx.apiKey}` } }, (res) => {
      let lines = 0;
      let bytes = 0;
      let chunks = 0;
      let hungUp = false;
      const finish = () => resolve({ lines, bytes, chunks, ms: performance.now() - started, status: res.statusCode ?? 0, hungUp });
      res.on('data', (chunk: Buffer) => {
        chunks++;
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        onProgress(lines);
        const elapsed = performance.now() - started;
        if (c.maxMs !== undefined && elapsed > c.maxMs) {
          hungUp = true;
          res.destroy();
          finish();
          return;
        }
        if (c.rate) {
          // Ahead of the rate: stop reading until it catches up (TCP then pushes back).
          const due = (bytes / c.rate) * 1000 - elapsed;
          if (due > 0) {
            res.pause();
            setTimeout(() => res.resume(), due);
          }
        }
      });
      res.on('end', finish);
      res.on('error', (err) => (hungUp ? undefined : reject(err)));
    });
    req.on('error', reject);
    void expected;
  });
}

const warmed = new Set<number>();

/**
 * Each kind of export once on a few traces (one session of the seeded data), before the
 * first measured export of a server: the first request of a route loads its code and
 * JIT-compiles it, which would count in the first row's RSS and time otherwise.
 */
async function warmUp(ctx: Ctx): Promise<void> {
  if (warmed.has(ctx.server.pid)) return;
  warmed.add(ctx.server.pid);
  for (const c of EXPORT_CASES.filter((x) => !x.rate)) {
    await download(ctx, { ...c, query: `${c.query}&sessionId=${encodeURIComponent(`sess-${ctx.seed}-0`)}` }, 0, () => undefined);
  }
}

export async function exportScenario(ctx: Ctx, c: ExportCase, storedTraces: number): Promise<ScenarioResult> {
  const pid = ctx.server.pid;
  await warmUp(ctx);
  // Settle: let the previous scenario's garbage go before reading the baseline.
  await new Promise((r) => setTimeout(r, 1500));
  const rssBefore = treeRss(pid);
  let peak = rssBefore;
  const byTenth: number[] = [];
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRss(pid));
  }, 50);
  let r: Awaited<ReturnType<typeof download>>;
  try {
    r = await download(ctx, c, storedTraces, (lines) => {
      while (byTenth.length < 10 && lines >= ((byTenth.length + 1) * storedTraces) / 10) byTenth.push(treeRss(pid) / MB);
    });
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, treeRss(pid));
  // CSV has a header line.
  const traces = c.query.includes('csv') ? r.lines - 1 : r.lines;
  const seconds = r.ms / 1000;
  const figures: ExportFigures = {
    traces,
    bytes: r.bytes,
    seconds,
    tracesPerSecond: traces / seconds,
    mbPerSecond: r.bytes / MB / seconds,
    rssBeforeMb: rssBefore / MB,
    rssPeakMb: peak / MB,
    rssByTenth: byTenth,
    chunks: r.chunks,
    ...(r.hungUp ? { hungUpAfterS: seconds } : {}),
  };
  const complete = r.hungUp || traces === storedTraces;
  const result: ScenarioResult = {
    db: ctx.db,
    group: 'export',
    name: c.name,
    clients: 1,
    storedTraces,
    summary: summarize(r.status === 200 && complete ? [r.ms] : [], r.ms, r.status === 200 && complete ? 0 : 1),
    serverRssMb: figures.rssPeakMb,
    load1: os.loadavg()[0],
    export: figures,
  };
  if (r.status !== 200) result.note = `HTTP ${r.status}`;
  else if (!complete) result.note = `${traces} of ${storedTraces} traces arrived`;
  ctx.log(
    `  export/${c.name} at ${storedTraces}: ${traces} traces, ${(r.bytes / MB).toFixed(1)} MB in ${seconds.toFixed(1)} s ` +
      `= ${Math.round(figures.tracesPerSecond)} traces/s, ${figures.mbPerSecond.toFixed(1)} MB/s, ${r.chunks} chunks; ` +
      `server RSS ${figures.rssBeforeMb.toFixed(0)} MB before, peak ${figures.rssPeakMb.toFixed(0)} MB; by tenth ${byTenth.map((m) => m.toFixed(0)).join(' ')}` +
      (r.hungUp ? ` (hung up after ${seconds.toFixed(1)} s)` : ''),
  );
  if (r.hungUp) {
    // The server should stop querying once the client is gone: on PostgreSQL, count the
    // export's statements that ran in the 2 s after the hang-up (pg_stat_statements).
    await ctx.diag?.reset();
    await new Promise((res) => setTimeout(res, 2000));
    const after = ctx.diag ? (await ctx.diag.top(20)).filter((st) => /FROM \(SELECT/.test(st.query)).reduce((n, st) => n + st.calls, 0) : undefined;
    figures.statementsAfterHangUp = after;
    ctx.log(`    2 s after hanging up: server RSS ${(treeRss(pid) / MB).toFixed(0)} MB${after === undefined ? '' : `, ${after} export statements ran meanwhile`}`);
  }
  return result;
}

export function exportTable(results: ScenarioResult[]): string {
  const rows = results.filter((r) => r.export);
  const head = '| db | stored traces | export | traces | MB | s | traces/s | MB/s | chunks | RSS before MB | RSS peak MB | RSS at each tenth (MB) |';
  const sep = '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|';
  const lines = rows.map((r) => {
    const e = r.export!;
    return `| ${r.db} | ${r.storedTraces} | ${r.name} | ${e.traces} | ${(e.bytes / MB).toFixed(1)} | ${e.seconds.toFixed(1)} | ${Math.round(e.tracesPerSecond)} | ${e.mbPerSecond.toFixed(1)} | ${e.chunks} | ${e.rssBeforeMb.toFixed(0)} | ${e.rssPeakMb.toFixed(0)} | ${e.rssByTenth.map((m) => m.toFixed(0)).join(' ')} |`;
  });
  return [head, sep, ...lines].join('\n');
}
