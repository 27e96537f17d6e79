// Where two runs parted: their decision paths side by side up to the first step that
// differs, each side's choice there and the steps that followed. Without a second run,
// the closest successful run of the same name (successfulMatch: the most recent completed
// run with the longest shared start), as the compare page picks it.
import 'server-only';
import { requireScope, type ServiceContext } from '@/lib/core/context';
import { AppError } from '@/lib/core/errors';
import { isValidTraceId } from '@/lib/features/traces';
import { tracePathSql } from '@/lib/features/query';
import type { RunStatus } from '@/lib/features/traces/shared';
import { raw, sql } from '@/lib/db/sql';
import { successfulMatch } from './compare';
import { firstDifference, type Step } from './steps';

export interface PartedRun {
  id: string;
  name: string;
  status: RunStatus;
  startedAt: string;
  path: Step[];
}

export interface PartedRuns {
  a: PartedRun;
  /** null when no other run of the name completed (only without otherTraceId). */
  b: PartedRun | null;
  /** b was picked as the closest successful run. */
  picked: boolean;
  /** Steps both paths share from the start. */
  sharedSteps: number;
  /** The first differing step (1-based) and each side's step there (null: that path ended); null when the paths are equal. */
  parted: { position: number; a: Step | null; b: Step | null } | null;
  /** Each side's steps after the parting (empty when equal). */
  followedA: Step[];
  followedB: Step[];
}

async function runOf(ctx: ServiceContext, id: string): Promise<PartedRun> {
  if (!isValidTraceId(id)) throw new AppError('VALIDATION', `Invalid trace ID "${id}"`);
  const rows = await ctx.db.sql.query<{ name: string; status: RunStatus; startedAt: Date; steps: Step[] }>(sql`
    SELECT t."name", t."status", t."startedAt", p.steps FROM "Trace" t CROSS JOIN LATERAL ${tracePathSql(raw('t."id"'))} p WHERE t."id" = ${id}`);
  if (rows.length === 0) throw new AppError('NOT_FOUND', `Trace "${id}" not found`);
  const r = rows[0];
  return { id, name: r.name, status: r.status, startedAt: new Date(r.startedAt).toISOString(), path: r.steps };
}

export async function partedRuns(ctx: ServiceContext, input: { traceId: string; otherTraceId?: string }): Promise<PartedRuns> {
  requireScope(ctx, 'read');
  const a = await runOf(ctx, input.traceId);
  let otherId = input.otherTraceId;
  const picked = otherId === undefined;
  if (otherId === undefined) otherId = (await successfulMatch(ctx, input.traceId)).traceId ?? undefined;
  if (otherId === undefined) return { a, b: null, picked, sharedSteps: 0, parted: null, followedA: [], followedB: [] };
  const b = await runOf(ctx, otherId);
  const at = firstDifference(a.path, b.path);
  if (at === null) return { a, b, picked, sharedSteps: a.path.length, parted: null, followedA: [], followedB: [] };
  return {
    a,
    b,
    picked,
    sharedSteps: at,
    parted: { position: at + 1, a: a.path[at] ?? null, b: b.path[at] ?? null },
    followedA: a.path.slice(at + 1),
    followedB: b.path.slice(at + 1),
  };
}
