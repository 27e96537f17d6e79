// npx tsx scripts/bench/page-profile.ts bench-results/run-.../page-<db>.trace.json [min-ms]
// Summarises the Chromium trace `npm run bench -- --only page --profile` writes for the
// last cold load of the detail page: the renderer main thread's tasks over min-ms (5 by
// default) in time order, from the navigation's start, with what each ran (script URL,
// function, layout, paint), the network requests' start and end, and the main thread's
// busy time by kind. The JS CPU profile beside it (page-<db>.cpuprofile) opens in Chrome
// DevTools (Performance → Load profile).
import { readFileSync } from 'node:fs';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown> & { data?: Record<string, unknown>; name?: string };
}

const [file, minArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: npx tsx scripts/bench/page-profile.ts FILE.trace.json [min-ms]');
  process.exit(2);
}
const minMs = Number(minArg ?? 5);
const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
const events = Array.isArray(raw) ? raw : raw.traceEvents;

// The renderer's main thread: the thread named CrRendererMain that ran the most.
const threadNames = new Map<string, string>();
for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, String(e.args?.name));
const busy = new Map<string, number>();
for (const e of events) {
  const key = `${e.pid}:${e.tid}`;
  if (threadNames.get(key) === 'CrRendererMain' && e.ph === 'X' && e.name === 'RunTask') busy.set(key, (busy.get(key) ?? 0) + (e.dur ?? 0));
}
const main = [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
if (!main) throw new Error('no renderer main thread in the trace');

const nav = events.find((e) => e.name === 'navigationStart' && `${e.pid}:${e.tid}` === main) ?? events.find((e) => e.name === 'navigationStart');
const t0 = nav ? nav.ts : Math.min(...events.filter((e) => e.ts > 0).map((e) => e.ts));
const ms = (ts: number) => ((ts - t0) / 1000).toFixed(0).padStart(5);

const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X');
const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) >= minMs * 1000 && e.ts >= t0).sort((a, b) => a.ts - b.ts);

function describe(task: TraceEvent): string {
  const end = task.ts + (task.dur ?? 0);
  const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end && (e.dur ?? 0) >= 1000);
  const parts = new Map<string, number>();
  for (const e of inside) {
    const d = e.args?.data ?? {};
    let label: string | null = null;
    if (e.name === 'EvaluateScript' || e.name === 'v8.compile' || e.name === 'v8.compileModule') label = `${e.name} ${short(String(d.url ?? ''))}`;
    else if (e.name === 'FunctionCall') label = `FunctionCall ${String(d.functionName || '?')} ${short(String(d.url ?? ''))}`;
    else if (e.name === 'EventDispatch') label = `Event ${String(d.type ?? '')}`;
    else if (['Layout', 'UpdateLayoutTree', 'Paint', 'ParseHTML', 'PrePaint', 'Layerize', 'HitTest', 'ParseAuthorStyleSheet', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'XHRReadyStateChange', 'v8.run'].includes(e.name)) label = e.name;
    if (label) parts.set(label, (parts.get(label) ?? 0) + (e.dur ?? 0));
  }
  return [...parts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`)
    .join('; ');
}

function short(url: string): string {
  return url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/_next\/static\/chunks\//, '').slice(0, 60);
}

console.log(`main-thread tasks >= ${minMs} ms (start ms from navigation, duration ms, what ran inside, ms):`);
for (const t of tasks) console.log(`${ms(t.ts)} +${((t.dur ?? 0) / 1000).toFixed(0).padStart(4)}  ${describe(t)}`);

// Network: when each request was sent and finished, from the renderer's resource events.
const sends = events.filter((e) => e.name === 'ResourceSendRequest');
const finishes = new Map(events.filter((e) => e.name === 'ResourceFinish').map((e) => [String(e.args?.data?.requestId), e]));
console.log('\nrequests (sent → finished ms, url):');
for (const s of sends.sort((a, b) => a.ts - b.ts)) {
  const d = s.args?.data ?? {};
  const f = finishes.get(String(d.requestId));
  console.log(`${ms(s.ts)} → ${f ? ms(Number(f.args?.data?.finishTime) * 1e6 || f.ts) : '    ?'}  ${short(String(d.url ?? ''))} ${String(d.priority ?? '')}`);
}

const totals = new Map<string, number>();
for (const e of onMain) if (e.ts >= t0 && ['EvaluateScript', 'FunctionCall', 'Layout', 'UpdateLayoutTree', 'Paint', 'ParseHTML', 'v8.compile', 'RunMicrotasks', 'TimerFire', 'EventDispatch', 'FireAnimationFrame'].includes(e.name)) totals.set(e.name, (totals.get(e.name) ?? 0) + (e.dur ?? 0));
const runTask = onMain.filter((e) => e.name === 'RunTask' && e.ts >= t0).reduce((s, e) => s + (e.dur ?? 0), 0);
console.log(`\nmain thread busy ${(runTask / 1000).toFixed(0)} ms in tasks; by kind (nested kinds overlap):`);
for (const [k, v] of [...totals.entries()].sort((a, b) => b[1] - a[1])) console.log(`  ${k} ${(v / 1000).toFixed(0)} ms`);
