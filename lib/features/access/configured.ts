// Whether configuration alone makes the server protected (no database needed to tell):
// API_KEYS, ADMIN_EMAIL or OIDC_ISSUER. Kept apart from mode.ts so proxy.ts can use it
// without pulling in the database.
import { getAccessConfig, getApiKeyEntries } from '@/lib/core/config';

export function configuredProtected(): boolean {
  const { adminEmail, oidc } = getAccessConfig();
  return getApiKeyEntries().length > 0 || adminEmail !== undefined || oidc !== undefined;
}
