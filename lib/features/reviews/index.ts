// The review queue: unreviewed decision points, one at a time, each held for its reviewer.
import 'server-only';
export { nextReview, parseSkips, reviewerOf, HOLD_MINUTES, MAX_SKIPS, type ReviewItem, type ReviewKey, type ReviewNext } from './next';
export { parseReviewFilters, type ReviewFilters } from './params';
