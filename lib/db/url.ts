// Which database a DATABASE_URL selects. Never echoes the URL: it may hold a password.
export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string }
  | { kind: 'pglite-memory' }
  | { kind: 'postgres'; url: string };

export function parseDatabaseUrl(url: string | undefined, defaultDataDir: string): DatabaseTarget {
  if (url === undefined || url.trim() === '') return { kind: 'pglite', dataDir: defaultDataDir };
  const trimmed = url.trim();
  if (trimmed === 'memory://' || trimmed === 'memory:') return { kind: 'pglite-memory' };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === 'postgres' || scheme === 'postgresql') return { kind: 'postgres', url: trimmed };
  throw new Error(
    `Unsupported DATABASE_URL${scheme ? ` scheme "${scheme}:"` : ' (no scheme)'}. ` +
      'Use postgres:// or postgresql:// for PostgreSQL, memory:// for an in-memory database, ' +
      'or leave DATABASE_URL unset for the embedded database on disk.',
  );
}
