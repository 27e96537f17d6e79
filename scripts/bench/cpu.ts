// CPU time of a process tree from /proc (Linux): what the server, or PostgreSQL with all
// its backends, spent between two samples, whatever the machine's other load.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** The fields of /proc/<pid>/stat after the command name: [0] state, [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime. */
function statFields(pid: string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // exited while we looked
  }
}

/**
 * CPU milliseconds (user + system) of pid and all its descendants, including children
 * that already exited and were waited for (cutime, cstime: a PostgreSQL backend that
 * ended is counted in the postmaster). Resolution: one clock tick, 10 ms.
 */
export function treeCpuMs(rootPid: number): number {
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (!f) continue;
    const pid = Number(entry);
    const ppid = Number(f[1]);
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
    ticks.set(pid, Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]));
  }
  let total = 0;
  const stack = [rootPid];
  for (let guard = 0; stack.length && guard < 10_000; guard++) {
    const pid = stack.pop()!;
    total += ticks.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return (total * 1000) / clockTicks();
}

/** The postmaster's pid of a cluster's data directory (first line of postmaster.pid). */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** CPU milliseconds per request of the server, PostgreSQL and this bench process, over a measured window. */
export interface CpuPerRequest {
  serverMs?: number;
  dbMs?: number;
  clientMs: number;
}

/**
 * Samples the CPU of the server's and PostgreSQL's process trees and of this process:
 * start() when the measured window opens, perRequest(n) when it closes. Where a part of
 * the machine's two cores goes is what decides an ingest path's rate against COPY.
 */
export function cpuMeter(pids: { server?: number; db?: number }) {
  const ownCpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const sample = () => ({
    server: pids.server ? treeCpuMs(pids.server) : undefined,
    db: pids.db ? treeCpuMs(pids.db) : undefined,
    client: ownCpuMs(),
  });
  let first = sample();
  return {
    start(): void {
      first = sample();
    },
    perRequest(requests: number): CpuPerRequest | undefined {
      if (requests <= 0) return undefined;
      const last = sample();
      const per = (a?: number, b?: number) => (a === undefined || b === undefined ? undefined : (b - a) / requests);
      return { serverMs: per(first.server, last.server), dbMs: per(first.db, last.db), clientMs: (last.client - first.client) / requests };
    },
  };
}

/** Binds a process, its threads and its current children to `cpus` (taskset's list); children forked later inherit it. */
export function pinTree(rootPid: number, cpus: string): void {
  const pids = [rootPid];
  for (const entry of readdirSync('/proc')) {
    if (/^\d+$/.test(entry) && statFields(entry)?.[1] === String(rootPid)) pids.push(Number(entry));
  }
  for (const pid of pids) execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}
