// Builds (when asked or missing) and runs the production server in its own dist dir,
// never `.next`: other people build and run dev servers in the same checkout. Samples
// the resident memory of the server and its child processes from /proc.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HttpClient } from './http';

const NEXT_BIN = path.join(process.cwd(), 'node_modules', 'next', 'dist', 'bin', 'next');

export function buildExists(distDir: string): boolean {
  return existsSync(path.join(process.cwd(), distDir, 'BUILD_ID'));
}

export interface BuildSource {
  commit: string;
  uncommittedFiles: string[];
  builtAt: string;
}

/** What the build in distDir was made from, as recorded when the bench built it. */
export function buildSource(distDir: string): BuildSource | undefined {
  try {
    return JSON.parse(readFileSync(path.join(process.cwd(), distDir, 'bench-build.json'), 'utf8')) as BuildSource;
  } catch {
    return undefined;
  }
}

export function build(distDir: string, log: (msg: string) => void, source?: BuildSource): void {
  // next build rewrites tsconfig.json includes for a custom distDir; tsconfig is not ours.
  const tsconfig = path.join(process.cwd(), 'tsconfig.json');
  const before = readFileSync(tsconfig, 'utf8');
  log(`building into ${distDir} (NEXT_DIST_DIR=${distDir} next build)`);
  const started = performance.now();
  const res = spawnSync(process.execPath, [NEXT_BIN, 'build'], {
    env: { ...process.env, NEXT_DIST_DIR: distDir, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const after = readFileSync(tsconfig, 'utf8');
  if (after !== before && after.includes(distDir)) {
    // next build adds "<distDir>/types/**/*.ts" to tsconfig.json's include; the file is
    // not the bench's to change, so put it back as it was.
    writeFileSync(tsconfig, before);
    log(`restored tsconfig.json (next build had added ${distDir} to "include")`);
  }
  if (res.status !== 0) throw new Error(`next build failed (exit ${res.status})`);
  writeFileSync(path.join(process.cwd(), distDir, 'bench-build.json'), JSON.stringify(source ?? {}, null, 1));
  log(`built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** Resident set size (bytes) of pid and all its descendants, from /proc. */
export function treeRss(rootPid: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid) follows the ")" that closes the command name.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // The process exited while we looked.
    }
  }
  let total = 0;
  const stack = [rootPid];
  for (let guard = 0; stack.length && guard < 10_000; guard++) {
    const pid = stack.pop()!;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      // exited
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

export interface RunningServer {
  baseUrl: string;
  pid: number;
  /** Highest RSS seen since the last call to resetPeak(). */
  peakRss(): number;
  resetPeak(): void;
  /** Highest RSS over the server's whole life. */
  lifetimePeakRss(): number;
  stop(): Promise<void>;
}

export interface StartOptions {
  distDir: string;
  port: number;
  env: Record<string, string | undefined>;
  log: (msg: string) => void;
  /** Where the server's stdout/stderr go. */
  logFile?: NodeJS.WritableStream;
  readyTimeoutMs?: number;
  /** Flags for node itself (--cpu-prof is refused in NODE_OPTIONS). */
  nodeArgs?: string[];
}

/**
 * The node flags `npm start` gives the server (package.json's start script), so the
 * bench measures the process a deployment runs.
 */
export function startScriptNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as { scripts: { start: string } };
  const flags = /\bnode((?:\s+--\S+)*)\s+\S*next\b/.exec(pkg.scripts.start)?.[1] ?? '';
  return flags.split(/\s+/).filter(Boolean);
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...startScriptNodeFlags(), ...(options.nodeArgs ?? []), NEXT_BIN, 'start', '-p', String(options.port), '-H', '127.0.0.1'],
    {
      env: { ...process.env, ...options.env, NEXT_DIST_DIR: options.distDir, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  if (options.logFile) {
    child.stdout!.pipe(options.logFile, { end: false });
    child.stderr!.pipe(options.logFile, { end: false });
  } else {
    child.stdout!.resume();
    child.stderr!.resume();
  }
  let exited = false;
  const exitPromise = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const pid = child.pid!;
  let peak = 0;
  let lifetimePeak = 0;
  const sample = () => {
    if (exited) return;
    const rss = treeRss(pid);
    peak = Math.max(peak, rss);
    lifetimePeak = Math.max(lifetimePeak, rss);
  };
  const sampler = setInterval(sample, 200);

  const stop = async () => {
    clearInterval(sampler);
    if (!exited) {
      child.kill('SIGTERM');
      const killed = await Promise.race([exitPromise.then(() => true), new Promise((r) => setTimeout(() => r(false), 15_000))]);
      if (!killed) {
        child.kill('SIGKILL');
        await exitPromise;
      }
    }
  };

  const baseUrl = `http://127.0.0.1:${options.port}`;
  const http = new HttpClient(baseUrl, 1);
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  let last = '';
  try {
    while (Date.now() < deadline) {
      if (exited) throw new Error(`next start exited with code ${child.exitCode} before it was ready`);
      try {
        const res = await http.request('GET', '/api/health', { timeoutMs: 30_000 });
        if (res.status === 200) break;
        last = `HTTP ${res.status} ${res.body.toString().slice(0, 200)}`;
      } catch (err) {
        last = (err as Error).message;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    if (Date.now() >= deadline) throw new Error(`server not healthy after ${options.readyTimeoutMs ?? 120_000} ms: ${last}`);
  } catch (err) {
    http.close();
    await stop();
    throw err;
  }
  http.close();
  sample();
  options.log(`server up at ${baseUrl} (pid ${pid}, RSS ${(treeRss(pid) / 2 ** 20).toFixed(0)} MB)`);
  return {
    baseUrl,
    pid,
    peakRss: () => (sample(), peak),
    resetPeak: () => {
      peak = treeRss(pid);
    },
    lifetimePeakRss: () => lifetimePeak,
    stop,
  };
}
