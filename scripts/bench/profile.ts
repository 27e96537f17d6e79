// npx tsx scripts/bench/profile.ts DIR_OR_FILE.cpuprofile [top]
// Summarises V8 CPU profiles written by `npm run bench -- --profile`: self time by
// package (node_modules/<name>, the app's own files, node internals, GC) and the
// functions with the most self time. Where the server's CPU goes, in a few lines.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
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

export function summariseProfile(profile: CpuProfile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const buckets = new Map<string, number>();
  const fns = new Map<string, number>();
  for (const [id, us] of self) {
    const n = byId.get(id)!;
    const { functionName, url, lineNumber } = n.callFrame;
    const b = bucketOf(url, functionName);
    buckets.set(b, (buckets.get(b) ?? 0) + us);
    const key = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*node_modules\//, '')}:${lineNumber + 1}` : ''}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1e6).toFixed(2).padStart(7)} s`;
  const idle = (buckets.get('(idle)') ?? 0) + (buckets.get('(program)') ?? 0);
  const lines = [`wall ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s, busy ${((total - idle) / 1e6).toFixed(1)} s`, '', 'self time by package:'];
  for (const [b, us] of [...buckets].sort((a, b) => b[1] - a[1]).slice(0, 20)) lines.push(`  ${pct(us)}  ${b}`);
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
