// Who may call: callContext.password is an API key (the keys of POST /api/traces);
// HTTP Basic (user:apikey) and Bearer carry one too. Any valid key is enough. In open
// mode (no keys configured) any non-empty key passes, as verifyApiKey decides.
import { verifyApiKey } from '@/lib/auth';
import type { CallContext } from './args';

export interface Caller {
  /** For logs only: codeUser, else the Basic user name, else "anonymous". */
  user: string;
}

function headerKeys(authorization: string | null): { key: string; user?: string }[] {
  if (!authorization) return [];
  const bearer = /^Bearer\s+(.+)$/i.exec(authorization.trim());
  if (bearer) return [{ key: bearer[1].trim() }];
  const basic = /^Basic\s+([A-Za-z0-9+/=_-]+)$/i.exec(authorization.trim());
  if (!basic) return [];
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return [];
  return [{ key: decoded.slice(colon + 1), user: decoded.slice(0, colon) }];
}

/** The caller, or null when no credential presented is a valid key. */
export function authenticate(context: CallContext, headers: Headers): Caller | null {
  const candidates = [{ key: context.password, user: undefined as string | undefined }, ...headerKeys(headers.get('authorization'))];
  // Every candidate is checked (no early exit) so timing does not tell which one failed.
  let accepted: { user?: string } | null = null;
  for (const c of candidates) if (verifyApiKey(c.key) && !accepted) accepted = c;
  if (!accepted) return null;
  return { user: context.codeUser.trim() || accepted.user || 'anonymous' };
}

/** A caller-supplied name made safe for one log line. */
export function logSafe(value: string, max = 64): string {
  return value.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, max);
}
