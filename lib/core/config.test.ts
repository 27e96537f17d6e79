// Configuration is checked whole at start (instrumentation.ts calls validateConfig): a bad
// value names its variable, so the server stops with a clear message instead of failing
// its first request.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getModelPrices, validateConfig } from './config';

const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

describe('validateConfig', () => {
  it('passes with nothing set', () => {
    for (const name of ['MAX_BODY_BYTES', 'RETENTION_DAYS', 'OIDC_ISSUER', 'DATABASE_PREPARED_STATEMENTS', 'SEARCH_WORDS_AT_INGEST']) delete process.env[name];
    expect(() => validateConfig()).not.toThrow();
  });

  it.each([
    ['MAX_BODY_BYTES', 'ten megabytes', 'MAX_BODY_BYTES must be an integer >= 1, got "ten megabytes"'],
    ['MAX_BATCH_TRACES', '0', 'MAX_BATCH_TRACES must be an integer >= 1, got "0"'],
    ['ADMISSION_WAIT_MS', '-1', 'ADMISSION_WAIT_MS must be an integer >= 0, got "-1"'],
    ['DATABASE_POOL_SIZE', '2.5', 'DATABASE_POOL_SIZE must be an integer >= 1, got "2.5"'],
    ['DATABASE_PREPARED_STATEMENTS', 'yes', 'DATABASE_PREPARED_STATEMENTS must be true or false, got "yes"'],
    ['SEARCH_WORDS_AT_INGEST', 'later', 'SEARCH_WORDS_AT_INGEST must be true or false, got "later"'],
    ['OTLP_MAX_SPANS_PER_REQUEST', 'many', 'OTLP_MAX_SPANS_PER_REQUEST must be an integer >= 1, got "many"'],
    ['RETENTION_DAYS', '40000', 'RETENTION_DAYS must be an integer from 1 to 36500, got "40000"'],
    ['OIDC_ISSUER', 'https://id.example.test', 'OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET'],
  ])('refuses %s=%s, naming it', (name, value, message) => {
    process.env[name] = value;
    expect(() => validateConfig()).toThrow(message);
  });
});

describe('MODEL_PRICES_FILE', () => {
  const file = (text: string) => {
    const at = path.join(mkdtempSync(path.join(tmpdir(), 'model-prices-')), 'prices.json');
    writeFileSync(at, text);
    return at;
  };

  it('is read and validated at start: a good file passes and its prices are served', () => {
    process.env.MODEL_PRICES_FILE = file('[{"model": "our-model", "inputPerMillion": 1, "outputPerMillion": 4}]');
    expect(() => validateConfig()).not.toThrow();
    expect(getModelPrices()).toMatchObject([{ label: 'our-model', model: 'our-model', inputPerMillion: 1, outputPerMillion: 4, cacheReadPerMillion: 1 }]);
  });

  it.each([
    ['[{"model": "m", "inputPerMillion": 1}]', /MODEL_PRICES_FILE \(.*prices\.json\)\[0\]\.outputPerMillion must be a non-negative number/],
    ['not json', /MODEL_PRICES_FILE \(.*\) is not valid JSON/],
  ])('stops the server on a bad file (%s), naming the entry and field', (text, message) => {
    process.env.MODEL_PRICES_FILE = file(text);
    expect(() => validateConfig()).toThrow(message);
  });

  it('stops the server on a file it cannot read', () => {
    process.env.MODEL_PRICES_FILE = '/nonexistent/prices.json';
    expect(() => validateConfig()).toThrow(/MODEL_PRICES_FILE cannot be read \(\/nonexistent\/prices\.json\)/);
  });
});
