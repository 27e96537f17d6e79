import type { Metadata } from 'next';
import { connection } from 'next/server';
import { pageContext } from '@/lib/transports/pages/context';
import { ReviewView } from '@/components/review/ReviewView';

export const metadata: Metadata = { title: 'Review decisions' };

// GET /review - the review queue: unreviewed decision points one at a time, judged right or wrong by keyboard
export default async function ReviewPage() {
  // Never prerendered; refused without the read scope (a redirect to sign-in). The items
  // come from GET /api/review/next, which holds each for its reviewer.
  await connection();
  await pageContext('/review');
  return <ReviewView />;
}
