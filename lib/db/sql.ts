// The one way to write SQL: a tagged template whose interpolated values become bind
// parameters ($1, $2, ...) and whose interpolated Sql fragments are spliced in, so a
// value is never concatenated into the text. Fragments compose (a WHERE built from
// conditions, a column list from lib/db/columns), and the whole statement is compiled
// once when it runs: sql`SELECT ${cols} FROM "Trace" t WHERE t."id" = ${id}`.
// Hand-written: the libraries that do this (sql-template-tag, slonik) either bring their
// own driver or differ in the details we rely on (Uint8Array values sent as bytes for
// queryBytes, named prepared statements per call site).

// Brands, not instanceof: Next bundles this module into several module graphs (route
// handlers, pages, instrumentation), and the one database handle of the process
// (lib/db, cached on globalThis) compiles statements built by any of them.
const SQL = Symbol.for('crossroads.sql.fragment');
const PARAM = Symbol.for('crossroads.sql.param');
const PARTS = Symbol.for('crossroads.sql.parts');

export interface Sql {
  readonly [SQL]: true;
  /** The text with $n placeholders, numbered from 1. */
  readonly text: string;
  /** The bind parameters, in placeholder order. */
  readonly values: unknown[];
}

/** A bind parameter that may appear several times in one statement: sent once, one $n. */
export class Param {
  readonly [PARAM] = true as const;
  constructor(readonly value: unknown) {}
}

const isParam = (value: unknown): value is Param => (value as { [PARAM]?: unknown } | null)?.[PARAM] === true;

/**
 * A value to interpolate at several places of a statement (a 9 MB request text read by
 * every table's insert): each place reads the same $n, and the value is sent once.
 */
export function param(value: unknown): Param {
  return new Param(value);
}

class Fragment implements Sql {
  readonly [SQL] = true as const;
  // Pieces alternate text and values; values may be nested fragments, flattened on compile.
  readonly [PARTS]: { readonly strings: readonly string[]; readonly args: readonly unknown[] };
  constructor(strings: readonly string[], args: readonly unknown[]) {
    this[PARTS] = { strings, args };
  }

  private compiled?: { text: string; values: unknown[] };

  private compile(): { text: string; values: unknown[] } {
    if (this.compiled) return this.compiled;
    const values: unknown[] = [];
    const shared = new Map<Param, number>();
    let text = '';
    const walk = (frag: Fragment) => {
      const { strings, args } = frag[PARTS];
      text += strings[0];
      for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        if (isSql(arg)) walk(arg as Fragment);
        else if (isParam(arg)) {
          let n = shared.get(arg);
          if (n === undefined) {
            values.push(arg.value);
            n = values.length;
            shared.set(arg, n);
          }
          text += `$${n}`;
        } else {
          values.push(arg);
          text += `$${values.length}`;
        }
        text += strings[i + 1];
      }
    };
    walk(this);
    this.compiled = { text, values };
    return this.compiled;
  }

  get text(): string {
    return this.compile().text;
  }

  get values(): unknown[] {
    return this.compile().values;
  }
}

/** A statement or a fragment of one: `${value}` is a parameter, `${fragment}` is spliced in. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Fragment([...strings], values);
}

/** Whether a value is a fragment built by sql. */
export function isSql(value: unknown): value is Sql {
  return (value as { [SQL]?: unknown } | null)?.[SQL] === true;
}

/**
 * Text spliced in as it is: only for what the code itself spells (a column list from the
 * registry, a table alias, an operator chosen from a fixed set), never for input.
 */
export function raw(text: string): Sql {
  return new Fragment([text], []);
}

/** The fragments one after another, with the separator between them. */
export function join(parts: readonly Sql[], separator: Sql | string = ', '): Sql {
  if (parts.length === 0) return empty;
  const sep = typeof separator === 'string' ? raw(separator) : separator;
  const strings: string[] = [''];
  const args: unknown[] = [];
  parts.forEach((part, i) => {
    if (i > 0) {
      args.push(sep);
      strings.push('');
    }
    args.push(part);
    strings.push('');
  });
  return new Fragment(strings, args);
}

/** A quoted identifier ("Trace", "startedAt"); the name comes from the code, never from input. */
export function ident(name: string): Sql {
  return raw(`"${name.replace(/"/g, '""')}"`);
}

/** Nothing: for an optional clause. */
export const empty: Sql = raw('');
