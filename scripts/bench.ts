// npm run bench -- [--db pglite|postgres|both] [--scale tiny|small|full] [--traces 100000,1000000]
//                  [--build] [--json FILE] [--only ingest,raw,list,detail,page,compare,soap,mixed,otlp,export] [--seed N]
//                  [--page-loads 10] (page: the 10,000-span trace's detail page in headless Chromium;
//                  compare: two 10,000-span traces' /traces/compare, as many cold loads)
//                  [--batches 1,10,100] [--clients 1,4,16] [--ingest-seconds 15] [--read-clients 1,4] [--diagnose] [--profile] [--pin-db] (PostgreSQL on CPU 0, client and server on CPU 1)
//                  [--otlp-spans 1000] [--otlp-paths otlp,json] [--server-node-args "--max-old-space-size=256"] [--dist-dir .next-bench]
//                  [--only retention --retention-traces 1000000 --retention-shape list|full] (retention: PostgreSQL only)
//                  [--only search --search-traces 100000] [--drop-search-indexes]
//                  [--only insights --insights-traces 1000000 --insights-names run|task] [--disable-insights-rollups]
//                  [--only paths --paths-traces 1000000] (10 decision points per trace: 1M traces, 10M decision points) [--disable-path-marks]
// Starts the production build (its own dist dir, .next-bench) on a fresh database,
// drives the real HTTP endpoints and prints latency percentiles and throughput per
// scenario. See docs/benchmarks.md.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { FULL_SHAPE, LIST_SEED_SHAPE } from './bench/generate';
import { HttpClient } from './bench/http';
import { openPgliteRaw, openPostgresRaw, type RawDb } from './bench/database';
import { freePort, startPostgres, type PgCluster } from './bench/postgres';
import { markdownTable, resultsTable, verdictTable, verdicts, writeJson, type RunMeta } from './bench/report';
import {
  DETAIL_INDEX_BASE,
  detailScenario,
  compareTraceId,
  detailTraceId,
  ingestScenario,
  ingestTemplates,
  listCases,
  listScenario,
  mixedScenario,
  rawIngest,
  soapQueryScenario,
  soapReadScenario,
  type Bounds,
  type Ctx,
  type Group,
  type PgDiagnostics,
  type RawMode,
  type ScenarioResult,
} from './bench/scenarios';
import { catchUpUpkeep, countTraces, seedTraces, truncateTraces, vacuumAnalyze } from './bench/seed';
import { detailCase, explainCases, insightsCase, INSIGHTS_SETTINGS, listCase } from './bench/explain';
import { SEARCH_TERM, SESSION_SIZE } from './bench/generate';
import { build, buildExists, buildSource, startServer, type RunningServer } from './bench/server';
import { pinTree, postmasterPid } from './bench/cpu';
import { otlpScenario, otlpTable, type OtlpPath } from './bench/otlp';
import { EXPORT_CASES, exportScenario, exportTable } from './bench/export';
import { pageScenario, pageTable } from './bench/page';
import { comparePageScenario, comparePageTable } from './bench/compare-page';
import { buildOtlpRequests } from './bench/otlp-requests';
import { retentionScenario, type RetentionShape } from './bench/retention';
import { pathsCases, pathsScenario, seedPathsData } from './bench/paths';
import { insightsCases, insightsScenario, seedInsightsData, type InsightsNames } from './bench/insights';
import { COMMON_TERM, RARE_TERM, dropSearchIndexes, relationSizes, sampleSearchLag, searchBacklogAfter, searchScenario, searchSizesTable, seedSearchData } from './bench/search';

// ---------- configuration ----------

interface Scale {
  listSizes: number[];
  batches: number[];
  clients: number[];
  ingest: Bounds;
  raw: Bounds;
  read: Bounds;
  detail: Bounds;
  mixed: Bounds;
  /** OTLP vs JSON ingest: each path at each client count. */
  otlp: Bounds;
  otlpClients: number[];
  /** Cold loads of the detail page in Chromium. */
  pageLoads: number;
}

const SCALES: Record<string, Scale> = {
  // For developing the bench itself.
  tiny: {
    listSizes: [1_000],
    batches: [1, 10, 100],
    clients: [1, 4],
    ingest: { maxRequests: 200, maxMs: 3_000 },
    raw: { maxRequests: 200, maxMs: 3_000 },
    read: { maxRequests: 300, maxMs: 2_000 },
    detail: { maxRequests: 50, maxMs: 3_000 },
    mixed: { maxRequests: 200, maxMs: 4_000 },
    otlp: { maxRequests: 20, maxMs: 5_000 },
    otlpClients: [1, 4],
    pageLoads: 3,
  },
  // The default: every scenario, lists at 100k traces. ~12 minutes for both databases.
  small: {
    listSizes: [100_000],
    batches: [1, 10, 100],
    clients: [1, 4, 16],
    ingest: { maxRequests: 5_000, maxMs: 6_000 },
    raw: { maxRequests: 5_000, maxMs: 4_000 },
    read: { maxRequests: 3_000, maxMs: 4_000 },
    detail: { maxRequests: 500, maxMs: 6_000 },
    mixed: { maxRequests: 5_000, maxMs: 10_000 },
    otlp: { maxRequests: 400, maxMs: 30_000 },
    otlpClients: [1, 4],
    pageLoads: 10,
  },
  // The issue's full run: lists at 100k and 1M traces, longer windows.
  full: {
    listSizes: [100_000, 1_000_000],
    batches: [1, 10, 100],
    clients: [1, 4, 16],
    ingest: { maxRequests: 10_000, maxMs: 15_000 },
    raw: { maxRequests: 10_000, maxMs: 10_000 },
    read: { maxRequests: 5_000, maxMs: 10_000 },
    detail: { maxRequests: 1_000, maxMs: 15_000 },
    mixed: { maxRequests: 10_000, maxMs: 30_000 },
    otlp: { maxRequests: 1_000, maxMs: 60_000 },
    otlpClients: [1, 4],
    pageLoads: 20,
  },
};

const GROUPS: Group[] = ['ingest', 'raw', 'list', 'detail', 'page', 'compare', 'soap', 'mixed', 'otlp', 'export', 'retention', 'search', 'insights', 'paths'];
/** Traces of the search data set (50 spans of 1-2 KB payloads each), by database and scale (--search-traces overrides). */
const SEARCH_TRACES: Record<'postgres' | 'pglite', Record<string, number>> = {
  postgres: { tiny: 1_000, small: 20_000, full: 100_000 },
  pglite: { tiny: 1_000, small: 10_000, full: 10_000 },
};
/** Traces of the insights data set (10 decision points each), by database and scale (--insights-traces overrides). */
const INSIGHTS_TRACES: Record<'postgres' | 'pglite', Record<string, number>> = {
  postgres: { tiny: 2_000, small: 100_000, full: 1_000_000 },
  pglite: { tiny: 2_000, small: 20_000, full: 100_000 },
};
/** Traces of the paths data set (10 decision points each), by database and scale (--paths-traces overrides). */
const PATHS_TRACES: Record<'postgres' | 'pglite', Record<string, number>> = {
  postgres: { tiny: 2_000, small: 20_000, full: 1_000_000 },
  pglite: { tiny: 2_000, small: 10_000, full: 20_000 },
};
/** Expired traces the retention scenario deletes, by scale (--retention-traces overrides). */
const RETENTION_TRACES: Record<string, number> = { tiny: 20_000, small: 200_000, full: 1_000_000 };
const DETAIL_SPANS = [50, 1_000, 10_000];
/** Distinct OTLP requests (and JSON batches of the same runs), rotated with fresh trace ids. */
const OTLP_REQUEST_TEMPLATES = 3;
const API_KEY = 'bench-key-0123456789';
/** The person the page scenario signs in as (pages take a session, not a key). */
const BENCH_ADMIN = { email: 'bench-admin@crossroads.test', password: 'bench-admin-password' };

interface Options {
  dbs: ('pglite' | 'postgres')[];
  scaleName: string;
  scale: Scale;
  build: boolean;
  json?: string;
  only: Set<Group>;
  seed: number;
  readClients: number[];
  diagnose: boolean;
  profile: boolean;
  distDir: string;
  /** Spans per OTLP request (the issue: 1,000). */
  otlpSpans: number;
  /** The OTLP scenario's paths: both, or one alone (to profile it). */
  otlpPaths: OtlpPath[];
  /** Extra flags for the server's node, e.g. "--max-old-space-size=256". */
  serverNodeArgs: string[];
  /** Retention: how many expired traces, of which shape (list: 4 children each; full: 70). */
  retentionTraces: number;
  retentionShape: RetentionShape;
  /** Insights: traces of the insights data set (else INSIGHTS_TRACES). */
  insightsTraces?: number;
  insightsNames: InsightsNames;
  /** Paths: traces of the paths data set (else PATHS_TRACES). */
  pathsTraces?: number;
  /** Search: traces of the search data set (else SEARCH_TRACES). */
  searchTraces?: number;
  /** Drop the search triggers right after migrating: nothing is queued or indexed for search (to measure what search indexing costs ingest). */
  dropSearchIndexes: boolean;
  disableInsightsRollups: boolean;
  /** Disable the triggers that mark traces whose decision path changed (to measure what they and the paths compaction cost ingest). */
  disablePathMarks: boolean;
  /** PostgreSQL on CPU 0, this bench and the server on CPU 1: the database on its own core, as deployments give it. */
  pinDb: boolean;
}

function usage(msg?: string): never {
  if (msg) console.error(`bench: ${msg}`);
  console.error(readFileSync(new URL(import.meta.url), 'utf8').split("\n").slice(0, 4).join('\n').replace(/^\/\/ ?/gm, ''));
  process.exit(2);
}

function parseArgs(argv: string[]): Options {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) usage(`unexpected argument ${a}`);
    const [k, inline] = a.slice(2).split('=', 2);
    if (['build', 'diagnose', 'profile', 'help', 'drop-search-indexes', 'disable-insights-rollups', 'disable-path-marks', 'pin-db'].includes(k)) args.set(k, 'true');
    else {
      const v = inline ?? argv[++i];
      if (v === undefined) usage(`--${k} needs a value`);
      args.set(k, v);
    }
  }
  if (args.has('help')) usage();
  const known = new Set(['db', 'scale', 'traces', 'build', 'json', 'only', 'seed', 'read-clients', 'diagnose', 'profile', 'dist-dir', 'batches', 'clients', 'ingest-seconds', 'server-node-args', 'otlp-spans', 'otlp-paths', 'retention-traces', 'retention-shape', 'search-traces', 'drop-search-indexes', 'page-loads', 'insights-traces', 'disable-insights-rollups', 'insights-names', 'paths-traces', 'disable-path-marks', 'pin-db']);
  for (const k of args.keys()) if (!known.has(k)) usage(`unknown option --${k}`);

  const db = args.get('db') ?? 'both';
  if (!['pglite', 'postgres', 'both'].includes(db)) usage('--db is pglite, postgres or both');
  const scaleName = args.get('scale') ?? 'small';
  if (!SCALES[scaleName]) usage(`--scale is one of ${Object.keys(SCALES).join(', ')}`);
  const scale = { ...SCALES[scaleName] };
  if (args.has('traces')) {
    scale.listSizes = args
      .get('traces')!
      .split(',')
      .map((s) => Number(s.trim().replace(/_/g, '')));
    if (scale.listSizes.some((n) => !Number.isInteger(n) || n < 1 || n > 10_000_000)) usage('--traces takes integers 1..10000000');
    scale.listSizes.sort((a, b) => a - b);
  }
  const ints = (name: string, max: number) => {
    const list = args.get(name)!.split(',').map((x) => Number(x.trim()));
    if (list.some((n) => !Number.isInteger(n) || n < 1 || n > max)) usage(`--${name} takes integers 1..${max}`);
    return list;
  };
  if (args.has('batches')) scale.batches = ints('batches', 1000);
  if (args.has('page-loads')) scale.pageLoads = ints('page-loads', 1000)[0];
  if (args.has('clients')) scale.clients = scale.otlpClients = ints('clients', 64);
  // A longer ingest window: sustained rates, e.g. past the search indexer's 60 s lag limit.
  if (args.has('ingest-seconds')) scale.ingest = { maxRequests: 1_000_000, maxMs: ints('ingest-seconds', 3_600)[0] * 1000 };
  const only = new Set((args.get('only') ?? GROUPS.join(',')).split(',').map((s) => s.trim()) as Group[]);
  for (const g of only) if (!GROUPS.includes(g)) usage(`--only takes ${GROUPS.join(',')}`);
  const otlpPaths = (args.get('otlp-paths') ?? 'otlp,json').split(',').map((s) => s.trim()) as OtlpPath[];
  if (!otlpPaths.length || otlpPaths.some((p) => p !== 'otlp' && p !== 'json')) usage('--otlp-paths takes otlp, json or both');
  const readClients = args.has('read-clients') ? ints('read-clients', 64) : [1, 4];
  const retentionShape = (args.get('retention-shape') ?? 'list') as RetentionShape;
  if (retentionShape !== 'list' && retentionShape !== 'full') usage('--retention-shape is list or full');
  const seed = Number(args.get('seed') ?? 42);
  if (!Number.isInteger(seed)) usage('--seed is an integer');
  return {
    dbs: db === 'both' ? ['postgres', 'pglite'] : [db as 'pglite' | 'postgres'],
    scaleName,
    scale,
    build: args.has('build'),
    json: args.get('json'),
    only,
    seed,
    readClients,
    diagnose: args.has('diagnose'),
    profile: args.has('profile'),
    distDir: args.get('dist-dir') ?? '.next-bench',
    otlpSpans: args.has('otlp-spans') ? ints('otlp-spans', 10_000)[0] : 1_000,
    otlpPaths,
    serverNodeArgs: (args.get('server-node-args') ?? '').split(/\s+/).filter(Boolean),
    retentionTraces: args.has('retention-traces') ? ints('retention-traces', 10_000_000)[0] : RETENTION_TRACES[scaleName],
    retentionShape,
    insightsTraces: args.has('insights-traces') ? ints('insights-traces', 10_000_000)[0] : undefined,
    insightsNames: insightsNamesArg(args.get('insights-names')),
    pathsTraces: args.has('paths-traces') ? ints('paths-traces', 10_000_000)[0] : undefined,
    searchTraces: args.has('search-traces') ? ints('search-traces', 10_000_000)[0] : undefined,
    dropSearchIndexes: args.has('drop-search-indexes'),
    disableInsightsRollups: args.has('disable-insights-rollups'),
    disablePathMarks: args.has('disable-path-marks'),
    pinDb: args.has('pin-db'),
  };
}

function insightsNamesArg(value: string | undefined): InsightsNames {
  if (value === undefined || value === 'run' || value === 'task') return value ?? 'run';
  throw new Error(`--insights-names: run or task, not ${value}`);
}

// ---------- helpers ----------

const t0 = performance.now();
function log(msg: string): void {
  const s = ((performance.now() - t0) / 1000).toFixed(0).padStart(4);
  console.log(`[${s}s] ${msg}`);
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function uncommittedFiles(): string[] {
  try {
    return execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((l) => l.slice(3));
  } catch {
    return [];
  }
}

async function pgDiagnostics(cluster: PgCluster): Promise<PgDiagnostics & { close(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  return {
    async reset() {
      await admin.query('SELECT pg_stat_statements_reset()');
    },
    async top(n) {
      const { rows } = await admin.query(
        `SELECT query, calls::int, mean_exec_time AS mean, total_exec_time AS total
           FROM pg_stat_statements
          WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'crossroads')
          ORDER BY total_exec_time DESC LIMIT $1`,
        [n],
      );
      return rows.map((r) => ({
        query: String(r.query).replace(/\s+/g, ' ').slice(0, 400),
        calls: r.calls,
        meanMs: Number(r.mean),
        totalMs: Number(r.total),
      }));
    },
    close: () => admin.end(),
  };
}

// ---------- one database ----------

/** Groups that read the list/detail data set after the search group ran. */
function needsRest(only: Set<Group>): boolean {
  return ['list', 'detail', 'soap', 'mixed', 'export'].some((g) => only.has(g as Group));
}

async function runDatabase(kind: 'pglite' | 'postgres', opts: Options, meta: RunMeta, logDir: string): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  const { scale, seed, only } = opts;
  const cleanups: (() => Promise<void> | void)[] = [];
  const serverLog = createWriteStream(path.join(logDir, `server-${kind}.log`));
  cleanups.push(() => new Promise<void>((r) => serverLog.end(r)));
  const seedStep = (step: string, r: { traces: number; records: number; seconds: number }) => {
    meta.seeding.push({ db: kind, step, ...r });
    log(`seed (${step}): ${r.traces} traces, ${r.records} records in ${r.seconds.toFixed(1)} s`);
  };
  /** The upkeep the server would have done on traces written straight into the tables, as a seeding step (see catchUpUpkeep). */
  const catchUp = async (db: RawDb, when: string) => {
    const started = performance.now();
    const { paths, indexed } = await catchUpUpkeep(db);
    seedStep(`upkeep ${when}: ${paths} paths stored, ${indexed} traces indexed`, { traces: 0, records: 0, seconds: (performance.now() - started) / 1000 });
  };

  try {
    // ----- storage -----
    let cluster: PgCluster | undefined;
    /** PostgreSQL's postmaster, for the CPU figures (PGlite runs inside the server). */
    let dbPid: number | undefined;
    let dataDir: string | undefined;
    let raw: RawDb | undefined;
    let diag: (PgDiagnostics & { close(): Promise<void> }) | undefined;
    if (kind === 'postgres') {
      const extra: Record<string, string> = { shared_preload_libraries: opts.diagnose ? 'pg_stat_statements,auto_explain' : 'pg_stat_statements' };
      if (opts.diagnose) {
        Object.assign(extra, {
          'auto_explain.log_min_duration': '40ms',
          'auto_explain.log_analyze': 'on',
          'auto_explain.log_buffers': 'on',
          'auto_explain.log_nested_statements': 'on',
        });
      }
      cluster = await startPostgres({ extra, log });
      dbPid = postmasterPid(path.join(cluster.dir, 'data'));
      if (opts.pinDb) {
        if (dbPid) pinTree(dbPid, '0');
        pinTree(process.pid, '1'); // the server, started later, inherits it
        log('--pin-db: PostgreSQL on CPU 0, the bench client and the server on CPU 1');
      }
      const c = cluster;
      cleanups.push(() => {
        if (opts.diagnose) {
          try {
            execFileSync('cp', [path.join(c.dir, 'log'), path.join(logDir, 'postgres.log')]);
          } catch {
            // diagnostics only
          }
        }
        c.stop();
      });
      meta.postgresSettings = cluster.settings;
      raw = await openPostgresRaw(cluster.url, { migrate: true });
      diag = await pgDiagnostics(cluster);
      cleanups.push(() => diag?.close());
    } else {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'crossroads-bench-pglite.'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      dataDir = path.join(dir, 'data');
      raw = await openPgliteRaw(dataDir);
      log(`PGlite data dir ${dataDir}`);
    }
    cleanups.push(() => raw?.close());
    if (opts.dropSearchIndexes) {
      const conn = await raw.connect();
      const dropped = await dropSearchIndexes(conn);
      await conn.release();
      log(`--drop-search-indexes: dropped ${dropped.length} trigram indexes (${dropped.map((d) => /INDEX (\S+)/.exec(d)?.[1]).join(', ')})`);
    }
    if (opts.disableInsightsRollups) {
      // What the insights rollup triggers cost ingest (issue 12): the same runs without them.
      // The insights answers are wrong from here on; only for comparing write rates.
      const conn = await raw.connect();
      for (const t of ['insert', 'update', 'delete', 'truncate']) await conn.query(`ALTER TABLE "Trace" DISABLE TRIGGER "Trace_insights_${t}"`);
      await conn.release();
      log('--disable-insights-rollups: the insights rollup triggers on "Trace" are disabled (insights answers are wrong in this run)');
    }
    if (opts.disablePathMarks) {
      // What storing paths costs ingest: the same runs without the triggers that mark
      // changed traces (nothing is marked, so the compaction after requests finds nothing).
      // Path answers are wrong from here on; only for comparing write rates.
      const conn = await raw.connect();
      // "Trace" has mark triggers too in builds that store each trace's figures beside its path.
      const triggers = await conn.query<{ table: string; name: string }>(
        `SELECT c.relname AS table, t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          WHERE c.relname IN ('DecisionPoint', 'Span', 'Trace') AND t.tgname ~ '_paths_(insert|update|delete)$'`,
      );
      for (const t of triggers) await conn.query(`ALTER TABLE "${t.table}" DISABLE TRIGGER "${t.name}"`);
      await conn.release();
      log(`--disable-path-marks: the path mark triggers are disabled (${triggers.map((t) => t.name).join(', ')}; path answers are wrong in this run)`);
    }

    // ----- seed: the traces the detail and SOAP read scenarios fetch -----
    const seedDetailTraces = async (db: RawDb) => {
      for (const spans of DETAIL_SPANS) {
        const r = await seedTraces(db, {
          seed: seed + 2,
          from: DETAIL_INDEX_BASE + spans,
          to: DETAIL_INDEX_BASE + spans + 1,
          shape: { ...FULL_SHAPE, spans },
          population: 1_000_000,
          idFor: () => detailTraceId(seed, spans),
          chunk: 1,
        });
        seedStep(`detail trace, ${spans} spans`, r);
      }
    };
    await seedDetailTraces(raw);
    if (only.has('compare')) {
      // The second run of the comparison: as many spans as the biggest detail trace, another run of the generator.
      const spans = Math.max(...DETAIL_SPANS);
      const r = await seedTraces(raw, {
        seed: seed + 2,
        from: DETAIL_INDEX_BASE + spans + 1,
        to: DETAIL_INDEX_BASE + spans + 2,
        shape: { ...FULL_SHAPE, spans },
        population: 1_000_000,
        idFor: () => compareTraceId(seed, spans),
        chunk: 1,
      });
      seedStep(`compare trace, ${spans} spans`, r);
    }

    log('generating ingest batches');
    const templates = new Map(scale.batches.map((b) => [b, ingestTemplates(seed + 1, b)]));
    const rawModes: RawMode[] = ['copy', 'insert', 'jsonb'];
    const rawResults: ScenarioResult[] = [];

    // PGlite: the server owns the data dir, so the raw baseline runs before it starts,
    // in this process, on its single connection.
    if (kind === 'pglite' && only.has('raw') && only.has('ingest')) {
      log('raw baseline (PGlite in process, one connection)');
      for (const batch of scale.batches) {
        for (const mode of rawModes) rawResults.push(await rawIngest(raw, kind, seed, mode, templates.get(batch)!, 1, scale.raw, log));
      }
      results.push(...rawResults);
      // The baseline's thousands of traces went in by COPY, so they wait for the indexer and
      // the path and insights upkeep; left to the server, that backlog takes PGlite's one
      // connection for a minute or more after it starts (the first cell or page load then
      // times out): caught up here, as a server that stored them over time would have.
      await catchUp(raw, 'after the raw baseline');
    }

    const port = await freePort();
    const env: Record<string, string> = {
      API_KEYS: API_KEY,
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      // A 100-trace batch of the issue's shape is ~9 MB of JSON.
      MAX_BODY_BYTES: String(64 * 2 ** 20),
      ...(kind === 'postgres' ? { DATABASE_URL: cluster!.url } : { DATABASE_URL: '', PGLITE_DATA_DIR: dataDir! }),
    };
    let server: RunningServer | undefined;
    const start = async () => {
      if (kind === 'pglite') {
        await raw?.close();
        raw = undefined;
      }
      server = await startServer({
        distDir: opts.distDir,
        port,
        env,
        log,
        logFile: serverLog,
        // --profile: V8 CPU profiles of the server, written when it exits (see bench/profile.ts).
        nodeArgs: [
          ...opts.serverNodeArgs,
          ...(opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(logDir, `cpuprofile-${kind}`)}`] : []),
        ],
      });
      return server;
    };
    const stop = async () => {
      await server?.stop();
      server = undefined;
      if (kind === 'pglite') raw = await openPgliteRaw(dataDir!);
    };
    cleanups.push(async () => {
      await server?.stop();
    });

    await start();
    const http = new HttpClient(server!.baseUrl, 64, { authorization: `Bearer ${API_KEY}` });
    cleanups.push(() => http.close());
    const ctx: Ctx = { db: kind, seed, http, server: server!, apiKey: API_KEY, log, diag, firstDetailRead: new Set(), dbPid };
    const refreshCtx = () => {
      ctx.server = server!;
    };

    // ----- the detail page in Chromium, on the freshly seeded detail traces (issue 25) -----
    if (only.has('page')) {
      const spans = Math.max(...DETAIL_SPANS);
      log(`page: /traces/{id} of the ${spans}-span trace in headless Chromium, ${scale.pageLoads} cold loads`);
      results.push(await pageScenario(ctx, { traceId: detailTraceId(seed, spans), spans, loads: scale.pageLoads, admin: BENCH_ADMIN, profileDir: opts.profile ? logDir : undefined }));
    }

    // ----- two 10,000-span runs compared in Chromium -----
    if (only.has('compare')) {
      const spans = Math.max(...DETAIL_SPANS);
      log(`compare: /traces/compare of two ${spans}-span traces in headless Chromium, ${scale.pageLoads} cold loads`);
      results.push(await comparePageScenario(ctx, { a: detailTraceId(seed, spans), b: compareTraceId(seed, spans), spans, loads: scale.pageLoads, admin: BENCH_ADMIN }));
    }

    // ----- ingest, and the raw baseline on the same PostgreSQL right after each -----
    if (only.has('ingest')) {
      log('ingest through POST /api/traces');
      for (const batch of scale.batches) {
        for (const clients of scale.clients) {
          const lag = kind === 'postgres' && !opts.dropSearchIndexes ? await sampleSearchLag(raw!) : undefined;
          const api = await ingestScenario(ctx, templates.get(batch)!, clients, scale.ingest);
          results.push(api);
          if (lag) {
            const samples = (await lag.stop()).sort((a, b) => a - b);
            const at = (p: number) => (samples[Math.min(samples.length - 1, Math.floor(p * samples.length))] / 1000).toFixed(1);
            log(`  search lag during ingest/batch ${batch} c=${clients} (${samples.length} samples, 1 s apart): p50 ${at(0.5)} s, p95 ${at(0.95)} s, max ${at(1)} s`);
          }
          if (kind === 'postgres' && !opts.dropSearchIndexes) {
            // Search is indexed after ingest (migration search_deferred_index): how far behind
            // the server's indexer was at the end of the window, and how long it took to catch up.
            const b = await searchBacklogAfter(raw!);
            const sustained = api.summary.recordsPerSecond && Number.isFinite(b.drainMs) ? (api.summary.recordsPerSecond * api.summary.wallSeconds) / (api.summary.wallSeconds + b.drainMs / 1000) : undefined;
            log(
              `  search indexer after ingest/batch ${batch} c=${clients}: ${b.traces} traces queued (oldest ${(b.oldestMs / 1000).toFixed(1)} s), ` +
                (b.left > 0 ? `${b.left} still queued after 600 s` : `drained in ${(b.drainMs / 1000).toFixed(1)} s`) +
                (sustained ? `; records/s counting the catch-up: ${sustained.toFixed(0)}` : ''),
            );
          }
          if (kind === 'postgres' && only.has('raw')) {
            for (const mode of rawModes) {
              const r = await rawIngest(raw!, kind, seed, mode, templates.get(batch)!, clients, scale.raw, log, ctx.dbPid);
              rawResults.push(r);
              results.push(r);
              if (!opts.dropSearchIndexes) {
                // The raw writes fire the same triggers, so their traces wait for the indexer
                // too: the baseline's own rate counting its catch-up, for a like-for-like ratio.
                const b = await searchBacklogAfter(raw!);
                const sustained = r.summary.recordsPerSecond && Number.isFinite(b.drainMs) ? (r.summary.recordsPerSecond * r.summary.wallSeconds) / (r.summary.wallSeconds + b.drainMs / 1000) : undefined;
                log(`  search indexer after raw/${mode} batch ${batch} c=${clients}: ${b.traces} traces queued, drained in ${(b.drainMs / 1000).toFixed(1)} s` + (sustained ? `; records/s counting the catch-up: ${sustained.toFixed(0)}` : ''));
              }
            }
          }
          const baselines = rawResults.filter((r) => r.batch === batch && (kind === 'pglite' || r.clients === clients));
          const best = Math.max(0, ...baselines.map((r) => r.summary.recordsPerSecond ?? 0));
          if (best > 0 && api.summary.recordsPerSecond !== undefined) api.vsRaw = api.summary.recordsPerSecond / best;
        }
      }
    }

    // ----- OTLP ingest against JSON ingest of the same runs (issue 10) -----
    if (only.has('otlp')) {
      if (kind !== 'postgres') log('otlp: runs on PostgreSQL only (where the issue sets its target); skipped on PGlite');
      else {
        const started = performance.now();
        const sets = buildOtlpRequests(seed + 3, OTLP_REQUEST_TEMPLATES, opts.otlpSpans);
        const c = sets[0].content;
        const mb = (n: number) => (n / 2 ** 20).toFixed(2);
        log(
          `otlp: ${sets.length} distinct requests encoded in ${((performance.now() - started) / 1000).toFixed(1)} s (before timing); the first: ` +
            `${c.traces} runs, ${c.spans} spans, ${c.decisions} decisions, ${c.events} events (${c.records} records), ` +
            `${mb(sets[0].otlp.body.length)} MB protobuf, ${mb(sets[0].json.body.bytes)} MB JSON`,
        );
        log('otlp: POST /api/otel/v1/traces (protobuf) and POST /api/traces (JSON), each on an empty database');
        results.push(...(await otlpScenario(ctx, { raw: raw!, dbPid: ctx.dbPid, paths: opts.otlpPaths, warmupPerClient: 2 }, sets, scale.otlpClients, scale.otlp)));
        // The scenario emptied the tables: put back what the read scenarios fetch.
        await seedDetailTraces(raw!);
      }
    }

    // ----- retention deleting expired traces while ingest runs (issue 13) -----
    if (only.has('retention')) {
      if (kind !== 'postgres') log('retention: runs on PostgreSQL only (where the issue asks for its cost); skipped on PGlite');
      else {
        results.push(
          ...(await retentionScenario(ctx, {
            raw: raw!,
            url: cluster!.url,
            traces: opts.retentionTraces,
            shape: opts.retentionShape,
            templates: templates.get(10) ?? ingestTemplates(seed + 1, 10),
            clients: 2,
            baselineMs: 15_000,
            seedStep,
          })),
        );
      }
    }

    // ----- full-text search q on its own data set (issue 13) -----
    if (only.has('search')) {
      const traces = opts.searchTraces ?? SEARCH_TRACES[kind][opts.scaleName];
      log(`search: seeding ${traces} traces of 50 spans with 1-2 KB payloads`);
      if (kind === 'pglite') await stop();
      const rareIds = await seedSearchData({ raw: raw!, seed: seed + 11, traces, seedStep, log });
      ctx.storedTraces = await countTraces(raw!);
      const sizes = await relationSizes(raw!);
      if (kind === 'pglite') {
        await start();
        refreshCtx();
      }
      log(`search: GET /api/traces?q= at ${ctx.storedTraces} traces`);
      const bounds = { maxRequests: 200, maxMs: Math.max(scale.read.maxMs, 8_000) };
      results.push(...(await searchScenario(ctx, { sizes, rareIds, clients: opts.readClients, bounds })));
      if (kind === 'postgres') {
        log('EXPLAIN ANALYZE of the search statements');
        const report = await explainCases(cluster!.url, [
          listCase(`search q=${RARE_TERM}`, { q: RARE_TERM }),
          listCase(`search q=${COMMON_TERM}`, { q: COMMON_TERM }),
          listCase(`search q=${COMMON_TERM} status=ERROR`, { q: COMMON_TERM, status: 'ERROR' }),
        ]);
        const file = path.join(logDir, `explain-postgres-search-${ctx.storedTraces}.txt`);
        (await import('node:fs')).writeFileSync(file, report);
        log(`  plans in ${path.relative(process.cwd(), file)}`);
      }
      if (needsRest(only)) {
        // Put back what the other read scenarios expect: only the detail traces.
        if (kind === 'pglite') await stop();
        await truncateTraces(raw!);
        await seedDetailTraces(raw!);
        if (kind === 'pglite') {
          await start();
          refreshCtx();
        }
      }
    }

    // ----- insights (issue 12) on its own data set: 10 decision points per trace -----
    if (only.has('insights')) {
      const traces = opts.insightsTraces ?? INSIGHTS_TRACES[kind][opts.scaleName];
      if (kind === 'pglite') await stop();
      await truncateTraces(raw!);
      log(`insights: seeding ${traces} traces with 10 decision points each`);
      const data = await seedInsightsData({ raw: raw!, seed: seed + 12, traces, names: opts.insightsNames, seedStep, log });
      ctx.storedTraces = data.traces;
      if (kind === 'pglite') {
        await start();
        refreshCtx();
      }
      log(`insights: GET /api/insights/{overview,decisions} at ${data.traces} traces, window ending ${new Date(data.end).toISOString()}`);
      const bounds = { maxRequests: 40, maxMs: Math.max(scale.read.maxMs, 15_000) };
      for (const c of insightsCases(data)) results.push(await insightsScenario(ctx, c, bounds));
      if (kind === 'postgres') {
        // The evidence for "why": the unfiltered and status=ERROR calls' statements, EXPLAIN ANALYZEd.
        log('EXPLAIN ANALYZE of the insights statements');
        const explained = insightsCases(data).filter((c) => !c.name.includes('name='));
        const report = await explainCases(cluster!.url, explained.map((c) => insightsCase(c.name, c.path)), INSIGHTS_SETTINGS);
        const file = path.join(logDir, `explain-postgres-insights-${data.traces}.txt`);
        (await import('node:fs')).writeFileSync(file, report);
        log(`  plans in ${path.relative(process.cwd(), file)}`);
      }
      if (needsRest(only) || only.has('list')) {
        if (kind === 'pglite') await stop();
        await truncateTraces(raw!);
        await seedDetailTraces(raw!);
        if (kind === 'pglite') {
          await start();
          refreshCtx();
        }
      }
    }

    // ----- decision paths (issue 27) on their own data set: 10 decision points per trace -----
    if (only.has('paths')) {
      const traces = opts.pathsTraces ?? PATHS_TRACES[kind][opts.scaleName];
      if (kind === 'pglite') await stop();
      await truncateTraces(raw!);
      log(`paths: seeding ${traces} traces with 10 decision points each`);
      const data = await seedPathsData({ raw: raw!, seed: seed + 27, traces, seedStep, log });
      ctx.storedTraces = data.traces;
      if (kind === 'pglite') {
        await start();
        refreshCtx();
      }
      log(`paths: GET /api/insights/paths and the list's path and fork filters at ${data.traces} traces, window ending ${new Date(data.end).toISOString()}`);
      const bounds = { maxRequests: 40, maxMs: Math.max(scale.read.maxMs, 15_000) };
      for (const c of await pathsCases(ctx, data)) results.push(await pathsScenario(ctx, c, bounds));
      if (needsRest(only) || only.has('list')) {
        if (kind === 'pglite') await stop();
        await truncateTraces(raw!);
        await seedDetailTraces(raw!);
        if (kind === 'pglite') {
          await start();
          refreshCtx();
        }
      }
    }

    // ----- list at each size: seed up to it (labelled), then measure -----
    const needsLists = only.has('list') || only.has('soap') || only.has('mixed') || only.has('detail') || only.has('export');
    const sizes = needsLists ? scale.listSizes : [];
    // Seeded list traces take indexes [0, n) of the list population; the stored total
    // (ingest and detail traces included) is brought up to each size exactly.
    let seeded = 0;
    for (const [i, size] of sizes.entries()) {
      if (kind === 'pglite') await stop();
      if (i === 0 && only.has('ingest') && (await countTraces(raw!)) > 3) {
        // The ingest scenarios stored tens of thousands of traces (more than the smallest
        // list size at full scale): start the list sizes from the seeded data alone.
        const started = performance.now();
        await truncateTraces(raw!);
        seedStep('TRUNCATE after ingest', { traces: 0, records: 0, seconds: (performance.now() - started) / 1000 });
        await seedDetailTraces(raw!);
      }
      const missing = Math.max(0, size - (await countTraces(raw!)));
      const r = await seedTraces(raw!, {
        seed,
        from: seeded,
        to: seeded + missing,
        shape: LIST_SEED_SHAPE,
        population: Math.max(...scale.listSizes),
        onProgress: (done, total) => {
          if (done && done % 100_000 === 0) log(`  seeding ${done}/${total}`);
        },
      });
      seeded += missing;
      seedStep(`list traces, total now ${size}`, r);
      await catchUp(raw!, 'caught up after seeding');
      const vac = await vacuumAnalyze(raw!);
      seedStep('VACUUM ANALYZE', { traces: 0, records: 0, seconds: vac });
      ctx.storedTraces = await countTraces(raw!);
      if (kind === 'pglite') {
        await start();
        refreshCtx();
      }
      if (only.has('list')) {
        log(`list at ${ctx.storedTraces} stored traces`);
        for (const c of listCases(seed, size)) {
          for (const clients of opts.readClients) results.push(await listScenario(ctx, c, clients, scale.read));
        }
      }
      if (kind === 'postgres' && only.has('list')) {
        // The evidence for "why": every statement of the list and detail calls, EXPLAIN ANALYZEd.
        log('EXPLAIN ANALYZE of the list and detail statements');
        const session = `sess-${seed}-${Math.floor((size - 1) / SESSION_SIZE)}`;
        const report = await explainCases(cluster!.url, [
          listCase('list first page', {}),
          listCase('list status=COMPLETED', { status: 'COMPLETED' }),
          listCase('list sessionId', { sessionId: session }),
          listCase(`list search "${SEARCH_TERM}"`, { search: SEARCH_TERM }),
          ...(i === sizes.length - 1 ? [detailCase('detail 10000 spans', detailTraceId(seed, 10_000))] : []),
        ]);
        const file = path.join(logDir, `explain-postgres-${size}.txt`);
        (await import('node:fs')).writeFileSync(file, report);
        log(`  plans in ${path.relative(process.cwd(), file)}`);
      }
      if (only.has('export')) {
        log(`export: GET /api/traces/export of all ${ctx.storedTraces} traces, server RSS sampled`);
        for (const c of EXPORT_CASES) results.push(await exportScenario(ctx, c, ctx.storedTraces));
      }
      if (i < sizes.length - 1) continue;

      // ----- at the largest size: detail, SOAP, mixed -----
      if (only.has('detail')) {
        log('detail: GET /api/traces/{id}');
        for (const spans of DETAIL_SPANS) {
          for (const clients of opts.readClients) results.push(await detailScenario(ctx, spans, clients, scale.detail));
        }
      }
      if (only.has('soap')) {
        log('SOAP: POST /api/soap');
        for (const clients of opts.readClients) results.push(await soapReadScenario(ctx, 50, clients, scale.read));
        for (const clients of opts.readClients) results.push(await soapQueryScenario(ctx, 100, clients, scale.read));
      }
      if (only.has('mixed')) {
        log('mixed: ingest batches of 10 (2 clients) while listing (2 clients)');
        results.push(...(await mixedScenario(ctx, templates.get(10) ?? ingestTemplates(seed + 1, 10), 2, 2, scale.mixed)));
      }
    }
    const lifetime = server ? (server as RunningServer).lifetimePeakRss() : 0;
    log(`${kind}: server RSS peak over its last start ${(lifetime / 2 ** 20).toFixed(0)} MB`);
  } finally {
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (err) {
        console.error(`cleanup: ${(err as Error).message}`);
      }
    }
  }
  return results;
}

// ---------- main ----------

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const meta: RunMeta = {
    startedAt: new Date().toISOString(),
    gitCommit: gitCommit(),
    uncommittedFiles: uncommittedFiles(),
    cores: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    scale: `${opts.scaleName} (lists at ${opts.scale.listSizes.join(', ')})`,
    seed: opts.seed,
    readClients: opts.readClients,
    seeding: [],
  };
  log(`crossroads bench: ${opts.dbs.join(' + ')}, scale ${meta.scale}, ${meta.cores} cores (${meta.cpuModel}), load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  if (opts.build || !buildExists(opts.distDir)) {
    build(opts.distDir, log, { commit: meta.gitCommit, uncommittedFiles: meta.uncommittedFiles, builtAt: new Date().toISOString() });
  }
  meta.build = buildSource(opts.distDir);
  if (!opts.build) {
    log(`using the existing build in ${opts.distDir}, made from ${meta.build ? `commit ${meta.build.commit} at ${meta.build.builtAt}` : 'an unknown commit'} (--build to rebuild)`);
  }

  const logDir = path.join(process.cwd(), 'bench-results', `run-${meta.startedAt.replace(/[:.]/g, '-')}`);
  mkdirSync(logDir, { recursive: true });
  const results: ScenarioResult[] = [];
  for (const db of opts.dbs) {
    log(`===== ${db} =====`);
    results.push(...(await runDatabase(db, opts, meta, logDir)));
  }
  meta.finishedAt = new Date().toISOString();
  meta.durationSeconds = Math.round((performance.now() - t0) / 1000);

  console.log('');
  if (meta.build) console.log(`Server build: commit ${meta.build.commit}, built ${meta.build.builtAt}${meta.build.uncommittedFiles.length ? `, with uncommitted changes in ${meta.build.uncommittedFiles.join(', ')}` : ''}`);
  console.log(`Machine: ${meta.cores} cores, ${meta.cpuModel}, ${meta.memoryGb} GiB; Node ${meta.node}; commit ${meta.gitCommit}; scale ${meta.scale}; read clients ${meta.readClients.join(',')}`);
  if (meta.postgresSettings) console.log(`PostgreSQL 15: ${Object.entries(meta.postgresSettings).map(([k, v]) => `${k}=${v}`).join(', ')}`);
  console.log('');
  console.log(resultsTable(results));
  console.log('');
  if (results.some((r) => r.otlp)) {
    console.log('OTLP ingest against JSON ingest of the same runs (issue 10):');
    console.log(otlpTable(results));
    console.log('');
  }
  if (results.some((r) => r.page)) {
    console.log('The trace detail page in headless Chromium (issue 25: interactive < 1.5 s, document < 512,000 bytes):');
    console.log(pageTable(results));
    console.log('');
  }
  if (results.some((r) => r.comparePage)) {
    console.log('Two 10,000-span runs compared in headless Chromium (issue 36: usable < 1.5 s):');
    console.log(comparePageTable(results));
    console.log('');
  }
  if (results.some((r) => r.export)) {
    console.log('Export (issue 13): one client streaming the whole export, server RSS sampled every 50 ms:');
    console.log(exportTable(results));
    console.log('');
  }
  if (results.some((r) => r.group === 'search')) {
    console.log('Full-text search (issue 13): table sizes (heap + TOAST), the search words and their trigram index, after the search scenarios:');
    console.log(searchSizesTable());
    console.log('');
  }
  console.log('Seeding (straight into the tables, not API figures):');
  console.log(
    markdownTable(
      ['db', 'step', 'traces', 'records', 'seconds'],
      meta.seeding.map((s) => [s.db, s.step, String(s.traces), String(s.records), s.seconds.toFixed(1)]),
    ),
  );
  console.log('');
  console.log('Targets:');
  console.log(verdictTable(verdicts(results)));
  const slow = results.filter((r) => r.topStatements?.length);
  if (slow.length) {
    const file = path.join(logDir, 'statements.txt');
    const text = slow
      .map((r) => `## ${r.db} ${r.group}: ${r.name} (c=${r.clients})\n${r.topStatements!.map((s) => `  ${s.calls} calls, mean ${s.meanMs.toFixed(2)} ms, total ${s.totalMs.toFixed(0)} ms: ${s.query}`).join('\n')}`)
      .join('\n\n');
    (await import('node:fs')).writeFileSync(file, text + '\n');
    console.log(`\nTop SQL statements per scenario (pg_stat_statements): ${path.relative(process.cwd(), file)}`);
  }
  console.log(`Server logs: ${path.relative(process.cwd(), logDir)}/; total ${meta.durationSeconds} s`);
  if (opts.json) {
    writeJson(opts.json, meta, results);
    console.log(`JSON written to ${opts.json}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
