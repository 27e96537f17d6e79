import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from './url';

describe('parseDatabaseUrl', () => {
  it('unset or blank selects embedded PGlite in the default data directory', () => {
    expect(parseDatabaseUrl(undefined, '/data/x')).toEqual({ kind: 'pglite', dataDir: '/data/x' });
    expect(parseDatabaseUrl('  ', '/data/x')).toEqual({ kind: 'pglite', dataDir: '/data/x' });
  });
  it('memory:// selects in-memory PGlite', () => {
    expect(parseDatabaseUrl('memory://', '/d')).toEqual({ kind: 'pglite-memory' });
  });
  it('postgres:// and postgresql:// select PostgreSQL', () => {
    expect(parseDatabaseUrl('postgres://u:p@h:5432/db', '/d')).toEqual({ kind: 'postgres', url: 'postgres://u:p@h:5432/db' });
    expect(parseDatabaseUrl('postgresql://h/db', '/d')).toEqual({ kind: 'postgres', url: 'postgresql://h/db' });
    expect(parseDatabaseUrl('POSTGRESQL://h/db', '/d').kind).toBe('postgres');
  });
  it('refuses any other scheme with a clear message that never echoes the URL', () => {
    expect(() => parseDatabaseUrl('mysql://root:secret@h/db', '/d')).toThrow(/Unsupported DATABASE_URL scheme "mysql:"/);
    expect(() => parseDatabaseUrl('mysql://root:secret@h/db', '/d')).not.toThrow(/secret/);
    expect(() => parseDatabaseUrl('just-a-path', '/d')).toThrow(/Unsupported DATABASE_URL \(no scheme\)/);
  });
});
