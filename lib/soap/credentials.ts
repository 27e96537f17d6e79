// Who may call: callContext.password is an API key (the keys of POST /api/traces);
// HTTP Basic (user:apikey) and Bearer carry one too. `save` needs the ingest scope, every
// other operation the read scope (lib/access).
import { keyPrincipal } from '@/lib/access/check';
import { accessMode } from '@/lib/access/mode';
import type { KeyScope } from '@/lib/access/scopes';
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

export type CallAccess = { caller: Caller } | { failure: string };

/**
 * Who may make this call: the first presented key that this server knows, if it has the
 * scope the operation needs (lib/access). In open mode any non-empty key passes, as for
 * POST /api/traces. Failures are business results (status 0), never faults.
 */
export async function authorizeCall(context: CallContext, headers: Headers, scope: KeyScope): Promise<CallAccess> {
  const candidates = [{ key: context.password, user: undefined as string | undefined }, ...headerKeys(headers.get('authorization'))].filter(
    (c) => c.key.length > 0,
  );
  const name = (c: { user?: string }) => context.codeUser.trim() || c.user || 'anonymous';
  if ((await accessMode()) === 'open') {
    return candidates.length > 0 ? { caller: { user: name(candidates[0]) } } : { failure: 'Authentication failed' };
  }
  for (const candidate of candidates) {
    const principal = await keyPrincipal(candidate.key, headers);
    if (!principal) continue;
    if (!principal.scopes.includes(scope)) return { failure: `API key lacks the ${scope} scope` };
    return { caller: { user: name(candidate) } };
  }
  return { failure: 'Authentication failed' };
}

/** A caller-supplied name made safe for one log line. */
export function logSafe(value: string, max = 64): string {
  return value.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, max);
}
