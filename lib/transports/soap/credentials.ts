// Who calls, for the logs. Access itself is lib/access's: callContext.password is an API
// key (the keys of POST /api/traces), HTTP Basic (user:apikey) and Bearer carry one too
// (lib/features/access/principal.ts, transport soap); `save` needs the ingest scope, every other
// operation the read scope.
import 'server-only';
import type { CallContext } from './args';

/** Who is calling, for the log line only: the envelope's codeUser, else the Basic user name, else "anonymous". */
export function callerName(context: CallContext, headers: Headers): string {
  const basic = /^Basic\s+([A-Za-z0-9+/=_-]+)$/i.exec(headers.get('authorization')?.trim() ?? '');
  const decoded = basic ? Buffer.from(basic[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  return context.codeUser.trim() || (colon > 0 ? decoded.slice(0, colon) : '') || 'anonymous';
}

/** A caller-supplied name made safe for one log line. */
export function logSafe(value: string, max = 64): string {
  return value.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, max);
}
