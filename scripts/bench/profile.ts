// npx tsx scripts/bench/profile.ts DIR_OR_FILE.cpuprofile [top]
// Summarises V8 CPU profiles written by `npm run bench -- --profile`: self time by
// package (node_modules/<name>, the app's own files, node internals, GC), the functions
// with the most self time, and the time spent in each of the app's source files with
// what they call. Frames in the production bundle are mapped back to their source file
// and line through the bundle's source maps (next build writes them beside the chunks),
// so the app's files and bundled packages show under their own names.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export function bucketOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  if (/\.next[^/]*\/server\/chunks/.test(url)) return 'app bundle (.next-bench chunks)';
  return path.basename(url);
}

/** A frame as a source location: the bundle's line and column mapped to the original file when a source map says. */
interface Frame {
  fn: string;
  /** Project-relative source file (or the url when unmapped). */
  file: string;
  line: number;
  bucket: string;
}

const sourceMaps = new Map<string, SourceMap | null>();

function sourceMapOf(url: string): SourceMap | null {
  if (!sourceMaps.has(url)) {
    let map: SourceMap | null = null;
    try {
      const file = url.startsWith('file://') ? fileURLToPath(url) : url;
      if (/\.next[^/]*\/server\//.test(file) && existsSync(`${file}.map`)) {
        map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      }
    } catch {
      map = null; // unreadable map: report the bundle location
    }
    sourceMaps.set(url, map);
  }
  return sourceMaps.get(url)!;
}

function frameOf(node: ProfileNode): Frame {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const map = url ? sourceMapOf(url) : null;
  const entry = map?.findEntry(lineNumber, columnNumber ?? 0) as { originalSource?: string; originalLine?: number; name?: string } | undefined;
  if (entry?.originalSource) {
    // Turbopack writes sources relative to the chunk ("../../../lib/otlp/decode.ts").
    const file = decodeURIComponent(entry.originalSource).replace(/^(?:\.\.\/)+/, '').replace(/^.*\[project\]\//, '');
    return {
      fn: functionName || entry.name || '(anonymous)',
      file,
      line: (entry.originalLine ?? 0) + 1,
      bucket: file.includes('node_modules/') ? bucketOf(file, functionName) : file,
    };
  }
  return { fn: functionName || '(anonymous)', file: url.replace(/^.*node_modules\//, ''), line: lineNumber + 1, bucket: bucketOf(url, functionName) };
}

export function summariseProfile(profile: CpuProfile, top = 25): string {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const frames = new Map(profile.nodes.map((n) => [n.id, frameOf(n)]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const buckets = new Map<string, number>();
  const fns = new Map<string, number>();
  // Inclusive time per app source file: every sample counts once for each file on its stack.
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const f = frames.get(id)!;
    buckets.set(f.bucket, (buckets.get(f.bucket) ?? 0) + us);
    const key = `${f.fn} ${f.file ? `${f.file}:${f.line}` : ''}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    const files = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const file = frames.get(n)!.file;
      if (/^(app|lib|components)\//.test(file)) files.add(file);
    }
    for (const file of files) inclusive.set(file, (inclusive.get(file) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1e6).toFixed(2).padStart(7)} s`;
  const idle = (buckets.get('(idle)') ?? 0) + (buckets.get('(program)') ?? 0);
  const lines = [`wall ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s, busy ${((total - idle) / 1e6).toFixed(1)} s`, '', 'self time by package (app files by name):'];
  for (const [b, us] of [...buckets].sort((a, b) => b[1] - a[1]).slice(0, 25)) lines.push(`  ${pct(us)}  ${b}`);
  lines.push('', 'time in app source files, with what they call (synchronous stacks only: a file awaiting is not counted):');
  for (const [f, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 25)) lines.push(`  ${pct(us)}  ${f}`);
  lines.push('', 'functions with most self time:');
  for (const [f, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(us)}  ${f.slice(0, 160)}`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = process.argv[2];
  if (!target) {
    console.error('usage: tsx scripts/bench/profile.ts DIR_OR_FILE [top]');
    process.exit(2);
  }
  const files = statSync(target).isDirectory()
    ? readdirSync(target).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(target, f))
    : [target];
  for (const f of files) {
    const profile = JSON.parse(readFileSync(f, 'utf8')) as CpuProfile;
    if (profile.samples.length < 50) continue; // short-lived helper processes
    console.log(`== ${f}`);
    console.log(summariseProfile(profile, Number(process.argv[3] ?? 25)));
    console.log('');
  }
}
