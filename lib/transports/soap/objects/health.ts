// HEALTH: run reports the service and database state (as GET /api/health does).
import 'server-only';
import { checkHealth } from '@/lib/features/traces';
import { fld, resultElement } from '@/lib/transports/soap/codec';
import type { FieldDef } from '@/lib/transports/soap/fields';
import type { PublicObject } from '@/lib/transports/soap/registry';
import { description } from './describe';

const HEALTH_FIELDS: FieldDef[] = [
  { name: 'status', type: 'Char', values: ['ok', 'error'], readOnly: true },
  { name: 'database', type: 'Char', values: ['ok', 'unreachable'], readOnly: true },
  { name: 'version', type: 'Char', readOnly: true },
];

export const healthObject: PublicObject = {
  name: 'HEALTH',
  describe() {
    return description('HEALTH', [{ tag: 'GRP', name: 'HEALTH', fields: HEALTH_FIELDS }]);
  },
  async run(ctx, params) {
    for (const name of params.keys()) ctx.warn(`Unknown parameter "${name}" for HEALTH ignored`);
    // checkHealth opens the database itself and never throws: an unreachable database is a report.
    const health = await ctx.meter.db(() => checkHealth());
    if (health.status !== 'ok') ctx.warn('The database is unreachable');
    const json = { status: health.status, database: health.database, version: health.version ?? null };
    return {
      xml: resultElement([
        {
          kind: 'GRP',
          id: 'HEALTH',
          fields: [fld.char('status', json.status), fld.char('database', json.database), fld.char('version', json.version)],
        },
      ]),
      json,
    };
  },
};
