import { json, jsonChunks, route } from '@/lib/transports/http/respond';
import { deleteTraceOrThrow } from '@/lib/features/retention';
import { streamTraceJsonOrThrow } from '@/lib/features/traces';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ id: string }> };

// GET /api/traces/{id} - one trace with its decision points, spans and events
export const GET = route({ scope: 'read', basic: true }, async (_req, { params }: Params, ctx) => {
  const { id } = await params;
  // The database builds the JSON (see lib/features/traces/detail.ts); it is sent as read, unparsed.
  const chunks = await streamTraceJsonOrThrow(ctx, id);
  return jsonChunks(
    (async function* () {
      yield '{"trace": ';
      yield* chunks;
      yield '}';
    })(),
  );
});

// DELETE /api/traces/{id} - delete one trace with everything it holds (admins and delete-scope keys)
export const DELETE = route({ scope: 'delete' }, async (_req, { params }: Params, ctx) => {
  const { id } = await params;
  return json({ success: true, count: await deleteTraceOrThrow(ctx, id) });
});
