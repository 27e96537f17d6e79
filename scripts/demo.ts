// npm run demo [-- --remove] - loads the demo data set into the database (DATABASE_URL, or
// the embedded one), replacing an earlier load; --remove deletes it. The embedded database
// is one process's: while the server runs, send the request to it instead:
//   npm run demo -- --url http://localhost:3000 [--key <API key>]   (any key in open mode)
import { parseArgs } from 'node:util';
import { systemContext } from '@/lib/core/context';
import { getDatabaseUrl } from '@/lib/core/config';
import { loadDemoData, removeDemoData } from '@/lib/features/demo';
import { openDatabase } from '@/lib/db/open';
import { DatabaseLockedError } from '@/lib/db/pglite';

const { values } = parseArgs({
  options: {
    remove: { type: 'boolean', default: false },
    url: { type: 'string' },
    key: { type: 'string', default: 'demo' },
  },
});

async function overHttp(base: string, key: string): Promise<string> {
  const res = await fetch(new URL('/api/demo', base), { method: values.remove ? 'DELETE' : 'POST', headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { traces?: number; replaced?: number; removed?: number; error?: string };
  if (!res.ok) throw new Error(`${res.status} ${body.error ?? ''} (a protected server needs --key with the ingest scope, or delete to remove)`);
  return values.remove ? `removed ${body.removed} demo traces` : `loaded ${body.traces} demo traces (${body.replaced} replaced)`;
}

async function direct(): Promise<string> {
  let db;
  try {
    db = await openDatabase(getDatabaseUrl(), { migrateEmbedded: true });
  } catch (err) {
    if (err instanceof DatabaseLockedError) {
      throw new Error(`${err.message}\nIs the server running? Then: npm run demo -- --url http://localhost:3000${values.remove ? ' --remove' : ''}`);
    }
    throw err;
  }
  try {
    const ctx = systemContext(db, 'npm run demo');
    if (values.remove) return `removed ${await removeDemoData(ctx)} demo traces (${db.kind})`;
    const result = await loadDemoData(ctx);
    return `loaded ${result.traces} demo traces, ${result.replaced} replaced (${db.kind})`;
  } finally {
    await db.close();
  }
}

try {
  console.log(values.url ? await overHttp(values.url, values.key!) : await direct());
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
