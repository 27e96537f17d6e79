// The context of a request, however it came (see Transport): the caller's principal and
// the database. The one function every transport builds its context with.
import 'server-only';
import { getConfig } from '@/lib/core/config';
import type { ServiceContext } from '@/lib/core/context';
import { getDatabase } from '@/lib/db';
import { resolvePrincipal, type Transport } from './principal';

export async function requestContext(headers: Headers, transport: Transport): Promise<ServiceContext> {
  const [principal, db] = await Promise.all([resolvePrincipal(headers, transport), getDatabase()]);
  return { principal, db, config: getConfig() };
}
