import { streamDownload } from '@/lib/transports/http/stream';
import { route } from '@/lib/transports/http/respond';
import { EXPORT_CONTENT_TYPES, exportFilename, exportTraces, parseExportParams } from '@/lib/features/traces';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// GET /api/traces/export - every trace matching the list's filters, streamed as NDJSON or CSV
export const GET = route({ scope: 'read', basic: true }, async (req, _params, ctx) => {
  const params = parseExportParams(new URL(req.url).searchParams);
  const pieces = exportTraces(ctx, params, { signal: req.signal });
  return streamDownload(pieces, { contentType: EXPORT_CONTENT_TYPES[params.format], filename: exportFilename(params) }, req.signal);
});
