// A platform's cron call (Vercel and others send `Authorization: Bearer $CRON_SECRET`):
// recognised before any principal is resolved, compared in constant time.
import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import { getCronSecret } from '@/lib/core/config';

export function isCronRequest(headers: Headers): boolean {
  const secret = getCronSecret();
  const header = headers.get('authorization');
  if (!secret || !header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const expected = Buffer.from(secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
