// The context every domain verb takes: who is calling and the database. Built from a
// request by requestContext (lib/features/access: route handlers, SOAP, OTLP, pages
// through lib/transports/pages/context.ts), or for the server's own upkeep by systemContext.
// A verb's first line is requireScope(ctx, scope): reading or writing data without a
// principal is impossible, and the rule applied is lib/core/access/decide.ts's, whoever calls.
import 'server-only';
import { decide, decideAny, type Actor, type Principal } from '@/lib/core/access/decide';
import type { Scope } from '@/lib/core/access/scopes';
import type { Database } from '@/lib/db';
import { getConfig, type Config } from './config';

export interface ServiceContext {
  readonly principal: Principal;
  readonly db: Database;
  /** The process's configuration, parsed once (lib/core/config.ts): what verbs read instead of the environment. */
  readonly config: Config;
}

/** The context of the server's own work (retention, search indexing, closing idle OTLP traces): never a request's. */
export function systemContext(db: Database, task: string): ServiceContext {
  return { principal: { mode: 'protected', keysOnly: false, credential: { kind: 'system', task } }, db, config: getConfig() };
}

/** Who the verb runs as, when the caller has this scope; throws AppError 401/403 otherwise. */
export function requireScope(ctx: ServiceContext, scope: Scope): Actor {
  return decide(ctx.principal, scope);
}

/** Who the verb runs as, under the first of these scopes the caller has; throws the first scope's error when none. */
export function requireAnyScope(ctx: ServiceContext, scopes: readonly [Scope, ...Scope[]]): { scope: Scope; actor: Actor } {
  return decideAny(ctx.principal, scopes);
}
