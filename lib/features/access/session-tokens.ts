// Session tokens are stored as their SHA-256 digest, as API keys are: a copy of the
// Session table (a backup, a replica, a leaked dump) holds no token that signs anyone in.
// Better Auth has no option for it, so its database adapter is wrapped: every session
// token it writes or looks up is hashed on the way in, and the rows it gets back carry
// the token it was given, so its cookie and its later lookups keep using the token itself.
import 'server-only';
import { createHash } from 'node:crypto';
import type { BetterAuthOptions, DBAdapter, DBTransactionAdapter, Where } from 'better-auth';

const SESSION = 'session';
const TOKEN = 'token';

/** What the Session table stores for a token: its SHA-256 digest in hex. */
export function sessionTokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Digests the tokens a where clause names; `tokens` learns digest -> token. */
function hashWhere(where: Where[], tokens: Map<string, string>): Where[] {
  return where.map((clause) => {
    if (clause.field !== TOKEN) return clause;
    const operator = clause.operator ?? 'eq';
    if (operator === 'eq' && typeof clause.value === 'string') return { ...clause, value: remember(clause.value, tokens) };
    if (operator === 'in' && Array.isArray(clause.value)) {
      return { ...clause, value: clause.value.map((token) => remember(String(token), tokens)) };
    }
    // Any other comparison of a digest with a token would silently match nothing.
    throw new Error(`Session tokens are stored as digests: "${operator}" on the token is not supported`);
  });
}

function remember(token: string, tokens: Map<string, string>): string {
  const digest = sessionTokenDigest(token);
  tokens.set(digest, token);
  return digest;
}

/** The row with the token it was looked up or made by, instead of the stored digest. */
function withToken<T>(row: T, tokens: Map<string, string>): T {
  if (!row || typeof row !== 'object') return row;
  const stored = (row as { token?: unknown }).token;
  const token = typeof stored === 'string' ? tokens.get(stored) : undefined;
  return token === undefined ? row : { ...row, token };
}

function hashData(data: Record<string, unknown>, tokens: Map<string, string>): Record<string, unknown> {
  return typeof data.token === 'string' ? { ...data, token: remember(data.token, tokens) } : data;
}

// Adapters already wrapped: a transaction may hand back the adapter it was called on, and
// wrapping that again would hash tokens twice from then on (everyone signed out).
const wrapped = new WeakSet<object>();

/** Wraps the adapter's methods in place (Better Auth keys per-adapter state on the object itself), once. */
function hashSessionTokens<A extends DBTransactionAdapter<BetterAuthOptions>>(adapter: A): A {
  if (wrapped.has(adapter)) return adapter;
  wrapped.add(adapter);
  const { create, findOne, findMany, count, update, updateMany, delete: remove, deleteMany, consumeOne, incrementOne } = adapter;
  const session = (model: string) => model === SESSION;
  Object.assign(adapter, {
    create: async (args: Parameters<typeof create>[0]) => {
      if (!session(args.model)) return create(args);
      const tokens = new Map<string, string>();
      return withToken(await create({ ...args, data: hashData(args.data, tokens) }), tokens);
    },
    findOne: async (args: Parameters<typeof findOne>[0]) => {
      if (!session(args.model)) return findOne(args);
      const tokens = new Map<string, string>();
      return withToken(await findOne({ ...args, where: hashWhere(args.where, tokens) }), tokens);
    },
    findMany: async (args: Parameters<typeof findMany>[0]) => {
      if (!session(args.model) || !args.where) return findMany(args);
      const tokens = new Map<string, string>();
      const rows = await findMany({ ...args, where: hashWhere(args.where, tokens) });
      return rows.map((row) => withToken(row, tokens));
    },
    count: (args: Parameters<typeof count>[0]) =>
      session(args.model) && args.where ? count({ ...args, where: hashWhere(args.where, new Map()) }) : count(args),
    update: async (args: Parameters<typeof update>[0]) => {
      if (!session(args.model)) return update(args);
      const tokens = new Map<string, string>();
      return withToken(await update({ ...args, where: hashWhere(args.where, tokens), update: hashData(args.update, tokens) }), tokens);
    },
    updateMany: (args: Parameters<typeof updateMany>[0]) => {
      if (!session(args.model)) return updateMany(args);
      const tokens = new Map<string, string>();
      return updateMany({ ...args, where: hashWhere(args.where, tokens), update: hashData(args.update, tokens) });
    },
    delete: (args: Parameters<typeof remove>[0]) => (session(args.model) ? remove({ ...args, where: hashWhere(args.where, new Map()) }) : remove(args)),
    deleteMany: (args: Parameters<typeof deleteMany>[0]) =>
      session(args.model) ? deleteMany({ ...args, where: hashWhere(args.where, new Map()) }) : deleteMany(args),
    consumeOne: async (args: Parameters<typeof consumeOne>[0]) => {
      if (!session(args.model)) return consumeOne(args);
      const tokens = new Map<string, string>();
      return withToken(await consumeOne({ ...args, where: hashWhere(args.where, tokens) }), tokens);
    },
    incrementOne: async (args: Parameters<typeof incrementOne>[0]) => {
      if (!session(args.model)) return incrementOne(args);
      const tokens = new Map<string, string>();
      const set = args.set ? hashData(args.set, tokens) : undefined;
      return withToken(await incrementOne({ ...args, where: hashWhere(args.where, tokens), set }), tokens);
    },
  });
  return adapter;
}

/** A database adapter (Better Auth's Prisma adapter here) whose session tokens are stored as digests, transactions included. */
export function withHashedSessionTokens(
  database: (options: BetterAuthOptions) => DBAdapter<BetterAuthOptions>,
): (options: BetterAuthOptions) => DBAdapter<BetterAuthOptions> {
  return (options) => {
    const adapter = hashSessionTokens(database(options));
    const { transaction } = adapter;
    adapter.transaction = (callback) => transaction((trx) => callback(hashSessionTokens(trx)));
    return adapter;
  };
}
