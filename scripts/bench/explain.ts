// Why is a scenario slow? Runs the same domain calls the routes make (list, detail,
// insights) on PostgreSQL with Prisma's query log on and the raw driver recorded, and
// EXPLAIN (ANALYZE, BUFFERS)es every SQL statement they sent, with its real parameters.
// Read-only: the domain layer is only called, never changed.
import { isSql } from '@/lib/db/sql';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@/lib/generated/prisma/client';
import { pgPoolExecutor, type SqlExecutor } from '@/lib/db/executor';
import { listTraces } from '@/lib/features/traces';
import { getTraceOrThrow } from '@/lib/features/traces';
import type { ListParams } from '@/lib/features/traces/shared';
import { decisionInsights, parseDecisionParams } from '@/lib/features/insights';
import { overviewInsights, parseOverviewParams } from '@/lib/features/insights';
import { INSIGHTS_WORK_MEM } from '@/lib/db/no-jit';
import { systemContext } from '@/lib/core/context';
import type { Database } from '@/lib/db';

export interface ExplainCase {
  name: string;
  run: (db: { prisma: PrismaClient; sql: SqlExecutor }) => Promise<unknown>;
}

export function listCase(name: string, params: Partial<ListParams>): ExplainCase {
  return { name, run: (db) => listTraces(benchContext(db), { page: 1, limit: 20, ...params }) };
}

export function detailCase(name: string, id: string): ExplainCase {
  return { name, run: (db) => getTraceOrThrow(benchContext(db), id) };
}

/** The bench reads as the server itself would for a caller with every scope. */
function benchContext(db: { prisma: PrismaClient; sql: SqlExecutor }) {
  return systemContext({ kind: 'postgres', ...db } as unknown as Database, 'bench');
}

/**
 * An insights call as its route makes it, from the route's query string. Its statements
 * run in the app with JIT off and INSIGHTS_WORK_MEM (no-jit.ts); pass INSIGHTS_SETTINGS to
 * explainCases so that they are planned alike.
 */
export function insightsCase(name: string, path: string): ExplainCase {
  const url = new URL(path, 'http://bench');
  const call = url.pathname.endsWith('/decisions') ? 'decisions' : 'overview';
  return {
    name,
    run: (db) =>
      call === 'decisions'
        ? decisionInsights(benchContext(db), parseDecisionParams(url.searchParams))
        : overviewInsights(benchContext(db), parseOverviewParams(url.searchParams)),
  };
}

export const INSIGHTS_SETTINGS = `SET jit = off; SET work_mem = '${INSIGHTS_WORK_MEM}'`;

interface Logged {
  query: string;
  params: unknown[];
  durationMs: number;
}

/**
 * Returns a text report: per case, each statement with its EXPLAIN ANALYZE plan.
 * `settings`: SQL run on the EXPLAIN session first (the app's session settings).
 */
export async function explainCases(url: string, cases: ExplainCase[], settings?: string): Promise<string> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const explainer = new pg.Client({ connectionString: url });
  await explainer.connect();
  if (settings) await explainer.query(settings);
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool),
    log: [{ emit: 'event', level: 'query' }],
  });
  let logged: Logged[] = [];
  prisma.$on('query' as never, (e: { query: string; params: string; duration: number }) => {
    let params: unknown[] = [];
    try {
      params = JSON.parse(e.params) as unknown[];
    } catch {
      // leave empty
    }
    logged.push({ query: e.query, params, durationMs: e.duration });
  });
  const raw = pgPoolExecutor(pool);
  const sql: SqlExecutor = {
    ...raw,
    async query(query, params = []) {
      const started = performance.now();
      const rows = await raw.query(query, params);
      logged.push({ query: isSql(query) ? query.text : query, params: isSql(query) ? query.values : (params as unknown[]), durationMs: Math.round(performance.now() - started) });
      return rows as never;
    },
  };
  const db = { prisma, sql };
  const out: string[] = [];
  try {
    for (const c of cases) {
      await c.run(db); // warm caches and plans
      logged = [];
      const started = performance.now();
      await c.run(db);
      const total = performance.now() - started;
      out.push(`### ${c.name}: ${total.toFixed(1)} ms through the domain call, ${logged.length} statement(s)`);
      // Transaction control (insights reads run in a transaction of their own) has no plan.
      for (const q of logged.filter((l) => !/^\s*(BEGIN|COMMIT|ROLLBACK)\b/i.test(l.query))) {
        const { rows } = await explainer.query(`EXPLAIN (ANALYZE, BUFFERS) ${q.query}`, q.params);
        out.push(`-- ${q.durationMs} ms: ${q.query.replace(/\s+/g, ' ')}\n-- params: ${JSON.stringify(q.params).slice(0, 300)}`);
        out.push(rows.map((r) => `   ${r['QUERY PLAN']}`).join('\n'));
      }
      out.push('');
    }
  } finally {
    await explainer.end();
    await prisma.$disconnect();
    await pool.end();
  }
  return out.join('\n');
}
