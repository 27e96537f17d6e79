// API keys from the environment, and reading a key out of an Authorization header.
// API_KEYS holds the accepted keys, comma-separated, each the key itself or
// sha256:<hex> of it (so a deployment need not store keys in clear). Unset means open
// mode: any non-empty key is accepted, as trace-api.md describes (presence only).
import { createHash, timingSafeEqual } from 'node:crypto';
import { getApiKeyEntries } from '@/lib/env';
import { AppError } from '@/lib/errors';

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();

function configuredDigests(): Buffer[] {
  return getApiKeyEntries().map((entry) =>
    /^sha256:[0-9a-f]{64}$/i.test(entry) ? Buffer.from(entry.slice(7), 'hex') : sha256(entry),
  );
}

export type AuthMode = 'open' | 'keys';

export function authMode(): AuthMode {
  return getApiKeyEntries().length > 0 ? 'keys' : 'open';
}

export function isOpenMode(): boolean {
  return authMode() === 'open';
}

/** True when the key is one of API_KEYS (false when none is configured). Constant-time, as verifyApiKey. */
export function isConfiguredKey(key: string): boolean {
  const digests = configuredDigests();
  const presented = sha256(key);
  let ok = false;
  for (const digest of digests) ok = timingSafeEqual(presented, digest) || ok;
  return ok;
}

/**
 * True when the key is accepted. Compares fixed-length digests with timingSafeEqual
 * against every configured key, without stopping at a match, so timing reveals nothing.
 */
export function verifyApiKey(key: string | null | undefined): boolean {
  if (!key) return false;
  const digests = configuredDigests();
  if (digests.length === 0) return true;
  const presented = sha256(key);
  let ok = false;
  for (const digest of digests) ok = timingSafeEqual(presented, digest) || ok;
  return ok;
}

/** The key of an `Authorization: Bearer <key>` header, with the spec's 401 messages. */
export function bearerKey(header: string | null): string {
  const match = header === null ? null : /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  if (!match) throw new AppError('UNAUTHENTICATED', 'Missing or invalid Authorization header');
  const key = (match[1] ?? '').trim();
  if (!key) throw new AppError('UNAUTHENTICATED', 'Missing API key');
  return key;
}

/**
 * The key of an `Authorization` header that is either `Bearer <key>` or `Basic` with the
 * key as the password (any user name), for clients that can only send Basic (OTLP
 * exporters configured by header, proxies). Same 401 messages as bearerKey.
 */
export function bearerOrBasicKey(header: string | null): string {
  const basic = header === null ? null : /^Basic(?:\s+(\S*))?\s*$/i.exec(header.trim());
  if (!basic) return bearerKey(header);
  const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const key = colon === -1 ? '' : decoded.slice(colon + 1);
  if (!key) throw new AppError('UNAUTHENTICATED', 'Missing API key');
  return key;
}

/** Authorises a request that may carry its key as Bearer or Basic (the OTLP endpoint). */
export function authenticateBearerOrBasic(headers: Headers): void {
  if (!verifyApiKey(bearerOrBasicKey(headers.get('authorization')))) throw new AppError('UNAUTHENTICATED', 'Invalid API key');
}

/** Authorises POST /api/traces; never logs or echoes the key. */
export function authenticateRequest(headers: Headers): void {
  const key = bearerKey(headers.get('authorization'));
  if (!verifyApiKey(key)) throw new AppError('UNAUTHENTICATED', 'Invalid API key');
}
