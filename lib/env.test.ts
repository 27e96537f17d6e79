// Configuration is checked whole at start (instrumentation.ts calls validateConfig): a bad
// value names its variable, so the server stops with a clear message instead of failing
// its first request.
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from './env';

const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

describe('validateConfig', () => {
  it('passes with nothing set', () => {
    for (const name of ['MAX_BODY_BYTES', 'RETENTION_DAYS', 'OIDC_ISSUER', 'DATABASE_PREPARED_STATEMENTS']) delete process.env[name];
    expect(() => validateConfig()).not.toThrow();
  });

  it.each([
    ['MAX_BODY_BYTES', 'ten megabytes', 'MAX_BODY_BYTES must be an integer >= 1, got "ten megabytes"'],
    ['MAX_BATCH_TRACES', '0', 'MAX_BATCH_TRACES must be an integer >= 1, got "0"'],
    ['ADMISSION_WAIT_MS', '-1', 'ADMISSION_WAIT_MS must be an integer >= 0, got "-1"'],
    ['DATABASE_POOL_SIZE', '2.5', 'DATABASE_POOL_SIZE must be an integer >= 1, got "2.5"'],
    ['DATABASE_PREPARED_STATEMENTS', 'yes', 'DATABASE_PREPARED_STATEMENTS must be true or false, got "yes"'],
    ['OTLP_MAX_SPANS_PER_REQUEST', 'many', 'OTLP_MAX_SPANS_PER_REQUEST must be an integer >= 1, got "many"'],
    ['RETENTION_DAYS', '40000', 'RETENTION_DAYS must be an integer from 1 to 36500, got "40000"'],
    ['OIDC_ISSUER', 'https://id.example.test', 'OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET'],
  ])('refuses %s=%s, naming it', (name, value, message) => {
    process.env[name] = value;
    expect(() => validateConfig()).toThrow(message);
  });
});
