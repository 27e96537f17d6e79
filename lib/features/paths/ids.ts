// Stable ids of paths and forks: the MD5 (hex) of their canonical key (steps.ts), the same
// digest PostgreSQL's md5() gives for the key it builds in lib/features/query/path-sql.ts. Safe for
// client components (the Path tab links to forks): @noble/hashes instead of node:crypto.
import { md5 as md5Bytes } from '@noble/hashes/legacy.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { forkKey, pathKey, type Step } from './steps';

const md5 = (text: string): string => bytesToHex(md5Bytes(utf8ToBytes(text)));

export const pathId = (steps: readonly Step[]): string => md5(pathKey(steps));

export const forkId = (prefix: readonly Step[]): string => md5(forkKey(prefix));

/** Path and fork ids are 32 lower-case hex digits. */
export const PATH_ID_PATTERN = /^[0-9a-f]{32}$/;
