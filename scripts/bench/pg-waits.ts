// Where PostgreSQL's sessions spend a scenario: sampled from pg_stat_activity, per
// statement, on CPU or waiting (a lock, I/O, WAL). A path that queues on a lock shows it.
import type { RawDb } from './database';

/** The statement a query text is, in a few words. */
function statementKind(query: string): string {
  const q = query.trim().replace(/\s+/g, ' ');
  if (q.startsWith('INSERT INTO "Trace"')) return 'trace upsert';
  if (q.startsWith('WITH s AS ( INSERT INTO "Span"')) return 'children upsert';
  if (q.startsWith('WITH "DecisionPointRows"')) return 'JSON batch insert';
  return q.slice(0, 40);
}

/**
 * Samples pg_stat_activity every `everyMs` while a scenario runs: per statement, the
 * share of samples each active session spent on CPU or waiting (lock, I/O, WAL), so a
 * path that queues on a lock shows it. Counts session-samples, not time.
 */
export function sampleWaits(raw: RawDb, everyMs = 50): { stop(): Promise<string> } {
  const counts = new Map<string, number>();
  let running = true;
  const loop = (async () => {
    const conn = await raw.connect();
    try {
      while (running) {
        // A session waiting for a row lock shows the row's table in pg_locks (a tuple
        // lock) or only the transaction it waits for; name the tables of the former.
        const rows = await conn.query<{ w: string | null; query: string; rel: string | null }>(
          `SELECT a.wait_event_type || ':' || a.wait_event AS w, a.query,
                  (SELECT string_agg(DISTINCT l.relation::regclass::text, ',') FROM pg_locks l
                    WHERE l.pid = a.pid AND NOT l.granted AND l.relation IS NOT NULL) AS rel
             FROM pg_stat_activity a
            WHERE a.datname = current_database() AND a.state = 'active' AND a.pid <> pg_backend_pid()`,
        );
        for (const r of rows) {
          const key = `${statementKind(r.query)} ${r.w ?? 'CPU'}${r.rel ? ` on ${r.rel}` : ''}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        await new Promise((res) => setTimeout(res, everyMs));
      }
    } finally {
      await conn.release();
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 6)
        .map(([k, n]) => `${k} ${((100 * n) / total).toFixed(0)}%`)
        .join(', ');
    },
  };
}
