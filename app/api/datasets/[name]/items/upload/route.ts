import { getLimits } from '@/lib/core/config';
import { parseUploadBody, upsertItems } from '@/lib/features/datasets';
import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ name: string }> };

// POST /api/datasets/{name}/items/upload - items from a file's text {"format": "jsonl" | "csv", "text"}, all or nothing
export const POST = route({ scope: 'curate' }, async (req, { params }: Params, ctx) => {
  const { name } = await params;
  const count = await upsertItems(ctx, name, parseUploadBody(await readBodyText(req, getLimits().maxBodyBytes)));
  return json({ success: true, count });
});
