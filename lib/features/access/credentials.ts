// API keys from the environment, and reading a key out of an Authorization header.
// API_KEYS holds accepted keys (ingest and read scopes), comma-separated, each the key itself or
// sha256:<hex> of it (so a deployment need not store keys in clear). Keys made in the UI
// are Better Auth's (check.ts asks it).
import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import { getApiKeyEntries } from '@/lib/core/config';
import { AppError } from '@/lib/core/errors';

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();

function configuredDigests(): Buffer[] {
  return getApiKeyEntries().map((entry) =>
    /^sha256:[0-9a-f]{64}$/i.test(entry) ? Buffer.from(entry.slice(7), 'hex') : sha256(entry),
  );
}

/** True when the key is one of API_KEYS (false when none is configured). Constant-time: fixed-length digests, every key compared without stopping at a match. */
export function isConfiguredKey(key: string): boolean {
  const digests = configuredDigests();
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
