// Contexts for tests that call domain verbs directly: as the server itself (every scope),
// or as a given principal (to test the verbs' own checks).
import type { Principal } from '@/lib/core/access/decide';
import { getConfig } from '@/lib/core/config';
import { systemContext, type ServiceContext } from '@/lib/core/context';
import type { Database } from '@/lib/db';

/** The verbs run with every scope, as housekeeping does. */
export function testContext(db: Database): ServiceContext {
  return systemContext(db, 'test');
}

/** The verbs run as this principal. */
export function contextAs(db: Database, principal: Principal): ServiceContext {
  return { principal, db, config: getConfig() };
}
