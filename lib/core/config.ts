// Configuration: the environment read and validated once per process into one typed
// object (getConfig), which request contexts carry (ctx.config). Every variable is
// documented in .env.example. Each field is parsed on first use and kept, so a bad value
// fails where it is used (and at start: validateConfig), never on an unrelated read.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import pkg from '@/package.json';
import { parseCustomPrices } from '@/lib/core/custom-prices';
import type { CustomPrice } from '@/lib/core/custom-prices';

function intFromEnv(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

export interface Limits {
  /** Request body size in bytes (JSON and SOAP). */
  maxBodyBytes: number;
  /** Traces per ingest batch. */
  maxBatchTraces: number;
  /** Decision points, spans and events per trace, each. */
  maxChildrenPerTrace: number;
  /** Bytes of request bodies processed at once per server process (lib/core/admission.ts). */
  maxInflightBodyBytes: number;
  /** How long a request waits for that budget before 503. */
  admissionWaitMs: number;
}

function parseLimits(): Limits {
  return {
    maxBodyBytes: intFromEnv('MAX_BODY_BYTES', 10 * 1024 * 1024),
    maxBatchTraces: intFromEnv('MAX_BATCH_TRACES', 1000),
    maxChildrenPerTrace: intFromEnv('MAX_CHILDREN_PER_TRACE', 10_000),
    maxInflightBodyBytes: intFromEnv('MAX_INFLIGHT_BODY_BYTES', 24 * 1024 * 1024),
    admissionWaitMs: intFromEnv('ADMISSION_WAIT_MS', 30_000, 0),
  };
}

/** DATABASE_URL as given; undefined means the embedded PGlite database on disk. */
function parseDatabaseUrl(): string | undefined {
  const url = process.env.DATABASE_URL?.trim();
  return url ? url : undefined;
}

function parsePgliteDataDir(): string {
  return path.resolve(process.env.PGLITE_DATA_DIR?.trim() || path.join(process.cwd(), '.data', 'pglite'));
}

function parseDbPoolSize(): number {
  return intFromEnv('DATABASE_POOL_SIZE', 10);
}

/**
 * DATABASE_PREPARED_STATEMENTS: whether statements run at every OTLP request are prepared
 * by name on each PostgreSQL connection (planned once, not at every call). Default true;
 * false for a transaction-mode pooler that cannot keep them (PgBouncer before 1.21).
 */
function parseDbPreparedStatements(): boolean {
  const raw = process.env.DATABASE_PREPARED_STATEMENTS?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'true') return true;
  if (raw === 'false') return false;
  throw new Error(`DATABASE_PREPARED_STATEMENTS must be true or false, got "${process.env.DATABASE_PREPARED_STATEMENTS}"`);
}

/**
 * SEARCH_WORDS_AT_INGEST: whether a JSON batch writes its traces' search words in its own
 * statement (searchable at once; the server computes the words) or queues the traces for
 * the background indexer, as other writers do. Default true.
 */
function parseSearchWordsAtIngest(): boolean {
  const raw = process.env.SEARCH_WORDS_AT_INGEST?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'true') return true;
  if (raw === 'false') return false;
  throw new Error(`SEARCH_WORDS_AT_INGEST must be true or false, got "${process.env.SEARCH_WORDS_AT_INGEST}"`);
}

/** Raw API_KEYS entries: each a key, or sha256:<hex> of one. Empty means open mode. */
function parseApiKeyEntries(): string[] {
  return (process.env.API_KEYS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
}

export const APP_VERSION: string = pkg.version;

export interface OtlpConfig {
  /** Spans in one OTLP export request; more is 413 (the exporter should send smaller batches). */
  maxSpansPerRequest: number;
  /** A RUNNING OTLP trace without its root span is closed after this long without a new span. */
  traceIdleTimeoutSeconds: number;
}

function parseOtlpConfig(): OtlpConfig {
  return {
    maxSpansPerRequest: intFromEnv('OTLP_MAX_SPANS_PER_REQUEST', 10_000),
    traceIdleTimeoutSeconds: intFromEnv('OTLP_TRACE_IDLE_TIMEOUT_SECONDS', 600),
  };
}

/**
 * RETENTION_DAYS: traces whose startedAt is older than this many days are deleted by
 * the upkeep (lib/upkeep). Unset or empty: keep everything.
 */
function parseRetentionDays(): number | undefined {
  const raw = process.env.RETENTION_DAYS;
  if (raw === undefined || raw.trim() === '') return undefined;
  const days = intFromEnv('RETENTION_DAYS', 0, 1);
  // Beyond a century the cutoff would leave the range dates can hold; nothing is that old anyway.
  if (days > 36_500) throw new Error(`RETENTION_DAYS must be an integer from 1 to 36500, got "${raw}"`);
  return days;
}

// The file is read once per path and process: prices change with a restart, as they are
// validated at start.
const modelPricesByPath = new Map<string, readonly CustomPrice[]>();
const NO_PRICES: readonly CustomPrice[] = Object.freeze([]);

/**
 * MODEL_PRICES_FILE: the operator's prices per model (lib/core/custom-prices.ts has the
 * format), which override the catalog's. Unset: none.
 */
function parseModelPrices(): readonly CustomPrice[] {
  const file = process.env.MODEL_PRICES_FILE?.trim();
  if (!file) return NO_PRICES;
  const resolved = path.resolve(file);
  let prices = modelPricesByPath.get(resolved);
  if (!prices) {
    let text: string;
    try {
      text = readFileSync(resolved, 'utf8');
    } catch (err) {
      throw new Error(`MODEL_PRICES_FILE cannot be read (${resolved}): ${(err as Error).message}`);
    }
    prices = Object.freeze(parseCustomPrices(text, `MODEL_PRICES_FILE (${resolved})`));
    modelPricesByPath.set(resolved, prices);
  }
  return prices;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Lower-cased email domains allowed to join through SSO (empty with no emails: anyone the provider vouches for). */
  allowedDomains: string[];
  /** Lower-cased emails allowed to join through SSO. */
  allowedEmails: string[];
}

export interface AccessConfig {
  /** The first admin, created at start when no user has this email. */
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  oidc: OidcConfig | undefined;
}

const list = (raw: string | undefined) =>
  (raw ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

/**
 * TRUSTED_ORIGINS: origins other than the one a request names in its Host (or
 * X-Forwarded-Host) whose pages may make changes with a session cookie and be sent to
 * after sign-in, comma-separated, each scheme://host[:port] (lib/features/access/origin.ts).
 */
function parseTrustedOrigins(): string[] {
  return (process.env.TRUSTED_ORIGINS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {
        // Named below.
      }
      const bare = url !== undefined && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash && !url.username && !url.password;
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.host || !bare) {
        throw new Error(`TRUSTED_ORIGINS entries must be origins such as https://crossroads.example.com (scheme, host, optional port), got "${entry}"`);
      }
      return url.origin;
    });
}

export interface TrustedProxy {
  address: string;
  /** Leading bits that must match: 32 (IPv4) or 128 (IPv6) for a single address. */
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/**
 * TRUSTED_PROXIES: the proxies in front of this server whose X-Forwarded-For is believed,
 * comma-separated, each an IPv4 or IPv6 address or a CIDR range. Unset: the client is the
 * socket's address (lib/core/client-address.ts).
 */
function parseTrustedProxies(): TrustedProxy[] {
  return (process.env.TRUSTED_PROXIES ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [address, bits, ...rest] = entry.split('/');
      const version = isIP(address);
      const max = version === 6 ? 128 : 32;
      const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
      if (version === 0 || rest.length > 0 || !(prefix >= 0 && prefix <= max)) {
        throw new Error(`TRUSTED_PROXIES entries must be IP addresses or CIDR ranges such as 10.0.0.0/8 or fd00::/8, got "${entry}"`);
      }
      return { address, prefix, family: version === 6 ? 'ipv6' : 'ipv4' };
    });
}

/** AUTH_SECRET: the session signing secret; unset: one kept in the database (lib/features/access/secret.ts). */
function parseAuthSecret(): string | undefined {
  return process.env.AUTH_SECRET?.trim() || undefined;
}

/** CRON_SECRET: the bearer token a platform's cron sends to GET /api/upkeep; unset: only admins may call it. */
function parseCronSecret(): string | undefined {
  return process.env.CRON_SECRET?.trim() || undefined;
}

export interface JudgeConfig {
  /** An OpenAI-compatible API's base, e.g. https://api.openai.com/v1 (chat completions are at <base>/chat/completions). */
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

export interface EvaluatorConfig {
  /** The llm_judge evaluators' endpoint; undefined when JUDGE_* are unset. */
  judge: JudgeConfig | undefined;
  /** How long a worker holds a claimed evaluation before another may take it (a worker that died). */
  leaseSeconds: number;
}

/**
 * JUDGE_BASE_URL, JUDGE_API_KEY, JUDGE_MODEL: the LLM judge. Any one set needs the base URL
 * and the model (a key is optional: local servers take none). EVALUATOR_LEASE_SECONDS,
 * JUDGE_TIMEOUT_MS as documented in .env.example.
 */
function parseEvaluatorConfig(): EvaluatorConfig {
  const env = (name: string) => process.env[name]?.trim() || undefined;
  const baseUrl = env('JUDGE_BASE_URL');
  const apiKey = env('JUDGE_API_KEY');
  const model = env('JUDGE_MODEL');
  const timeoutMs = intFromEnv('JUDGE_TIMEOUT_MS', 60_000);
  const leaseSeconds = intFromEnv('EVALUATOR_LEASE_SECONDS', 120);
  if (!baseUrl && !apiKey && !model) return { judge: undefined, leaseSeconds };
  if (!baseUrl || !model) throw new Error('JUDGE_BASE_URL and JUDGE_MODEL are both needed for the LLM judge (JUDGE_API_KEY is optional)');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`JUDGE_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`JUDGE_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  return { judge: { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, model, timeoutMs }, leaseSeconds };
}

function parseAccessConfig(): AccessConfig {
  const env = (name: string) => process.env[name]?.trim() || undefined;
  const issuer = env('OIDC_ISSUER');
  const clientId = env('OIDC_CLIENT_ID');
  const clientSecret = env('OIDC_CLIENT_SECRET');
  if (issuer && (!clientId || !clientSecret)) throw new Error('OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
  return {
    adminEmail: env('ADMIN_EMAIL')?.toLowerCase(),
    adminPassword: process.env.ADMIN_PASSWORD || undefined,
    oidc:
      issuer && clientId && clientSecret
        ? {
            issuer: issuer.replace(/\/+$/, ''),
            clientId,
            clientSecret,
            allowedDomains: list(process.env.OIDC_ALLOWED_DOMAINS).map((d) => d.replace(/^@/, '')),
            allowedEmails: list(process.env.OIDC_ALLOWED_EMAILS),
          }
        : undefined,
  };
}

/**
 * Reads every variable once and throws the first problem with the variable's name, so a
 * server with a mistyped limit stops at start (instrumentation.ts) instead of answering
 * 500 to its first request.
 */
export function validateConfig(): void {
  const config = getConfig();
  for (const key of Object.keys(config) as Array<keyof Config>) void config[key];
}

export interface Config {
  readonly limits: ReturnType<typeof parseLimits>;
  readonly databaseUrl: ReturnType<typeof parseDatabaseUrl>;
  readonly pgliteDataDir: ReturnType<typeof parsePgliteDataDir>;
  readonly dbPoolSize: ReturnType<typeof parseDbPoolSize>;
  readonly dbPreparedStatements: ReturnType<typeof parseDbPreparedStatements>;
  readonly searchWordsAtIngest: ReturnType<typeof parseSearchWordsAtIngest>;
  readonly apiKeyEntries: ReturnType<typeof parseApiKeyEntries>;
  readonly otlpConfig: ReturnType<typeof parseOtlpConfig>;
  readonly retentionDays: ReturnType<typeof parseRetentionDays>;
  readonly modelPrices: ReturnType<typeof parseModelPrices>;
  readonly trustedOrigins: ReturnType<typeof parseTrustedOrigins>;
  readonly trustedProxies: ReturnType<typeof parseTrustedProxies>;
  readonly authSecret: ReturnType<typeof parseAuthSecret>;
  readonly cronSecret: ReturnType<typeof parseCronSecret>;
  readonly accessConfig: ReturnType<typeof parseAccessConfig>;
  readonly evaluatorConfig: ReturnType<typeof parseEvaluatorConfig>;
}

const PARSERS: { [K in keyof Config]: () => Config[K] } = {
    limits: parseLimits,
    databaseUrl: parseDatabaseUrl,
    pgliteDataDir: parsePgliteDataDir,
    dbPoolSize: parseDbPoolSize,
    dbPreparedStatements: parseDbPreparedStatements,
    searchWordsAtIngest: parseSearchWordsAtIngest,
    apiKeyEntries: parseApiKeyEntries,
    otlpConfig: parseOtlpConfig,
    retentionDays: parseRetentionDays,
    modelPrices: parseModelPrices,
    trustedOrigins: parseTrustedOrigins,
    trustedProxies: parseTrustedProxies,
    authSecret: parseAuthSecret,
    cronSecret: parseCronSecret,
    accessConfig: parseAccessConfig,
    evaluatorConfig: parseEvaluatorConfig,
};

let current: Config | undefined;

/** The process's configuration, each field parsed from the environment once, on first use. */
export function getConfig(): Config {
  if (current) return current;
  const parsed = new Map<keyof Config, unknown>();
  const config = {} as Config;
  for (const key of Object.keys(PARSERS) as Array<keyof Config>) {
    Object.defineProperty(config, key, {
      enumerable: true,
      get() {
        if (!parsed.has(key)) parsed.set(key, PARSERS[key]());
        return parsed.get(key);
      },
    });
  }
  current = Object.freeze(config);
  return current;
}

/** Forgets the parsed configuration, so the next read parses the environment again (tests change it between cases). */
export function resetConfig(): void {
  current = undefined;
}

// The fields one by one, for code that runs before or without a context (opening the
// database, resolving who is calling, the upkeep's timer).
export const getLimits = (): Config['limits'] => getConfig().limits;
export const getDatabaseUrl = (): Config['databaseUrl'] => getConfig().databaseUrl;
export const getPgliteDataDir = (): Config['pgliteDataDir'] => getConfig().pgliteDataDir;
export const getDbPoolSize = (): Config['dbPoolSize'] => getConfig().dbPoolSize;
export const getDbPreparedStatements = (): Config['dbPreparedStatements'] => getConfig().dbPreparedStatements;
export const getSearchWordsAtIngest = (): Config['searchWordsAtIngest'] => getConfig().searchWordsAtIngest;
export const getApiKeyEntries = (): Config['apiKeyEntries'] => getConfig().apiKeyEntries;
export const getOtlpConfig = (): Config['otlpConfig'] => getConfig().otlpConfig;
export const getRetentionDays = (): Config['retentionDays'] => getConfig().retentionDays;
export const getModelPrices = (): Config['modelPrices'] => getConfig().modelPrices;
export const getTrustedOrigins = (): Config['trustedOrigins'] => getConfig().trustedOrigins;
export const getTrustedProxies = (): Config['trustedProxies'] => getConfig().trustedProxies;
export const getAuthSecret = (): Config['authSecret'] => getConfig().authSecret;
export const getCronSecret = (): Config['cronSecret'] => getConfig().cronSecret;
export const getAccessConfig = (): Config['accessConfig'] => getConfig().accessConfig;
export const getEvaluatorConfig = (): Config['evaluatorConfig'] => getConfig().evaluatorConfig;
