// What a credential may do. Keys carry scopes; people carry a role.
// - ingest: POST /api/traces, OTLP, SOAP save
// - read:   every GET of traces, the viewer, SOAP read/query/getDescription/run
// - delete: DELETE /api/traces/{id} and DELETE /api/traces?sessionId= (keys an admin
//           granted it to, and people with the admin role)
// - admin:  managing users and API keys (people with the admin role only)
// - annotate: writing scores (POST /api/scores): every signed-in person, keys with
//           ingest; in open mode anyone, as reads
// - configure: setting up how the server judges (score configs, evaluators): admins; in open mode
//           anyone, since the laptop's user is the admin there. Unlike admin it never
//           touches users or keys, so it cannot end open mode or make the first admin.
// - curate: writing datasets and experiments (their items, runs): keys with ingest, people
//           with the admin role; in open mode anyone, as the laptop's user is its admin
export const KEY_SCOPES = ['ingest', 'read', 'delete'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/**
 * The scopes of API_KEYS keys: ingest and read, as before deletion existed. Deleting is
 * only ever granted explicitly (a key made with the delete scope), so a deployment's
 * ingest keys in the environment never gained the power to erase data by an upgrade.
 */
export const CONFIGURED_KEY_SCOPES: readonly KeyScope[] = ['ingest', 'read'];
export type Scope = KeyScope | 'admin' | 'annotate' | 'configure' | 'curate';

export const ROLES = ['admin', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Scopes are stored in the api-key plugin's permissions under this resource. */
export const PERMISSION_RESOURCE = 'crossroads';

export function isKeyScope(value: unknown): value is KeyScope {
  return typeof value === 'string' && (KEY_SCOPES as readonly string[]).includes(value);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The scopes in a stored permissions value ({"crossroads":["read"]}, as JSON text or parsed). */
export function scopesOf(permissions: unknown): KeyScope[] {
  let value = permissions;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  const list = (value as Record<string, unknown> | null)?.[PERMISSION_RESOURCE];
  return Array.isArray(list) ? KEY_SCOPES.filter((s) => list.includes(s)) : [];
}
