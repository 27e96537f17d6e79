import { readBodyText } from '@/lib/transports/http/body';
import { json, route } from '@/lib/transports/http/respond';
import { nextReview, parseReviewFilters, parseSkips } from '@/lib/features/reviews';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// The hold a call takes makes it a write: POST. A body of skipped items is small.
const MAX_SKIP_BODY_BYTES = 256 * 1024;

// POST /api/review/next - the next unreviewed decision point for this reviewer, held for 5 minutes (filters in the query)
export const POST = route({ scope: 'read' }, async (req, _params, ctx) => {
  const filters = parseReviewFilters(new URL(req.url).searchParams);
  const skip = parseSkips(await readBodyText(req, MAX_SKIP_BODY_BYTES));
  return json(await nextReview(ctx, filters, skip));
});
