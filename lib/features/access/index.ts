// lib/features/access: the feature's surface; everything else in this folder is private to it.
import 'server-only';
export { type ApiKeyRecord, createApiKey, listApiKeys, parseNewApiKey, revokeApiKey } from './api-keys';
export { AUTH_BASE_PATH, getAuth, OIDC_PROVIDER_ID } from './auth';
export { accessMode, type AccessMode } from './mode';
export { resolvePrincipal, sessionIdentity, type Transport } from './principal';
export { addUser, deleteUser, listUsers, parseNewUser, setUserRole, type UserRecord } from './users';
export { requestContext } from './request-context';
