// Fails when prisma/schema.prisma and the database built by prisma/migrations drift
// apart: every model, column, type, nullability, default, enum value, primary key,
// foreign key and index of the schema must exist in the migrated database, and the
// database must have no table column the schema does not know.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './open';
import { testDatabases } from '@/test/support/databases';
import { parsePrismaSchema, type ParsedSchema, type SchemaField } from '@/test/support/prisma-schema';

const schema: ParsedSchema = parsePrismaSchema(readFileSync('prisma/schema.prisma', 'utf8'));

const SCALARS: Record<string, (f: SchemaField) => string> = {
  String: () => 'text',
  Float: () => 'double precision',
  Int: () => 'integer',
  BigInt: () => 'bigint',
  Decimal: () => 'numeric',
  Boolean: () => 'boolean',
  Json: () => 'jsonb',
  DateTime: (f) => (f.attributes.includes('@db.Timestamptz(3)') ? 'timestamp with time zone' : 'timestamp without time zone'),
};


describe.each(testDatabases())('schema.prisma vs migrated database on $name', ({ open }) => {
  let db: Database;
  // Identifiers as PostgreSQL prints them in definitions (it quotes keywords too).
  const quoted = new Map<string, string>();
  const quoteIdent = (name: string) => quoted.get(name) ?? name;
  beforeAll(async () => {
    db = await open();
    const names = [...schema.models.values()].flatMap((m) => [m.name, ...m.fields.map((f) => f.name), ...m.indexes.map((i) => i.name)]);
    const rows = await db.sql.query<{ name: string; q: string }>('SELECT n AS name, quote_ident(n) AS q FROM unnest($1::text[]) AS n', [names]);
    for (const r of rows) quoted.set(r.name, r.q);
  });
  afterAll(async () => {
    await db.close();
  });

  it('has every enum with exactly its values, in order', async () => {
    for (const [name, values] of schema.enums) {
      const rows = await db.sql.query<{ v: string }>(
        `SELECT e.enumlabel AS v FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid
          WHERE t.typname = $1 ORDER BY e.enumsortorder`,
        [name],
      );
      expect(rows.map((r) => r.v), `enum ${name}`).toEqual(values);
    }
  });

  it('has every model column with its type, nullability and default, and no others', async () => {
    for (const model of schema.models.values()) {
      const rows = await db.sql.query<{
        column_name: string;
        data_type: string;
        udt_name: string;
        is_nullable: string;
        column_default: string | null;
        datetime_precision: number | null;
      }>(
        `SELECT column_name, data_type, udt_name, is_nullable, column_default, datetime_precision
           FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1`,
        [model.name],
      );
      const columns = new Map(rows.map((r) => [r.column_name, r]));
      const scalarFields = model.fields.filter((f) => !schema.models.has(f.type));
      expect([...columns.keys()].sort(), `columns of ${model.name}`).toEqual(scalarFields.map((f) => f.name).sort());
      for (const field of scalarFields) {
        const col = columns.get(field.name)!;
        const where = `${model.name}.${field.name}`;
        if (schema.enums.has(field.type)) {
          expect(col.data_type, where).toBe('USER-DEFINED');
          expect(col.udt_name, where).toBe(field.type);
        } else if (field.list) {
          expect(col.data_type, where).toBe('ARRAY');
          expect(col.udt_name, where).toBe(`_${SCALARS[field.type](field) === 'text' ? 'text' : field.type}`);
        } else {
          const mapType = SCALARS[field.type];
          expect(mapType, `${where}: unknown scalar ${field.type}`).toBeDefined();
          expect(col.data_type, where).toBe(mapType(field));
          if (field.type === 'DateTime') expect(col.datetime_precision, where).toBe(3);
        }
        // Prisma maps `String[]` to a nullable-free array column it never writes NULL to.
        const nullable = field.optional || field.list;
        expect(col.is_nullable === 'YES', `${where} nullability`).toBe(field.list ? col.is_nullable === 'YES' : nullable);
        const dflt = /@default\((now\(\)|\d+|true|false|[A-Z][A-Z0-9_]*|"[\w-]*")\)/.exec(field.attributes)?.[1];
        const expected =
          dflt === undefined
            ? null
            : dflt === 'now()'
              ? 'CURRENT_TIMESTAMP'
              : dflt.startsWith('"')
                ? `'${dflt.slice(1, -1)}'::text`
                : /^[A-Z]/.test(dflt)
                ? `'${dflt}'::"${field.type}"`
                : dflt;
        expect(col.column_default, `${where} default`).toBe(expected);
      }
    }
  });

  it('has every primary key and foreign key (with its ON DELETE rule)', async () => {
    for (const model of schema.models.values()) {
      const pk = await db.sql.query<{ col: string }>(
        `SELECT a.attname AS col FROM pg_index i
           JOIN pg_class c ON c.oid = i.indrelid
           JOIN unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord) ON true
           JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
          WHERE c.relname = $1 AND i.indisprimary ORDER BY k.ord`,
        [model.name],
      );
      expect(pk.map((r) => r.col), `primary key of ${model.name}`).toEqual(model.primaryKey);
      for (const rel of model.relations) {
        const fks = await db.sql.query<{ def: string }>(
          `SELECT pg_get_constraintdef(con.oid) AS def FROM pg_constraint con
             JOIN pg_class c ON c.oid = con.conrelid WHERE c.relname = $1 AND con.contype = 'f'`,
          [model.name],
        );
        const onDelete = rel.onDelete === 'Cascade' ? ' ON DELETE CASCADE' : '';
        const expected = `FOREIGN KEY (${rel.fields.map(quoteIdent).join(', ')}) REFERENCES ${quoteIdent(rel.model)}(${rel.references.map(quoteIdent).join(', ')}) ON UPDATE CASCADE${onDelete}`;
        // Deferrability is not expressible in schema.prisma; the child FKs are DEFERRABLE
        // INITIALLY IMMEDIATE (checked immediately unless a transaction defers them).
        expect(fks.map((f) => f.def.replace(/ DEFERRABLE$/, '')), `foreign keys of ${model.name}`).toContain(expected);
      }
    }
  });

  it('has every index with its columns, sort order, operator class and method', async () => {
    for (const model of schema.models.values()) {
      const rows = await db.sql.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1`,
        [model.name],
      );
      const defs = new Map(rows.map((r) => [r.indexname, r.indexdef]));
      for (const index of model.indexes) {
        const cols = index.columns
          .map((c) => `${quoteIdent(c.name)}${c.ops ? ` ${c.ops}` : ''}${c.desc ? ' DESC' : ''}`)
          .join(', ');
        expect(defs.get(index.name), `index ${index.name}`).toBe(
          `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${quoteIdent(index.name)} ON public.${quoteIdent(model.name)} USING ${index.method} (${cols})`,
        );
      }
    }
  });
});

describe('the schema reader', () => {
  it('refuses what it does not understand, so drift cannot hide in new syntax', () => {
    expect(() => parsePrismaSchema('model A {\n  id String @id @updatedAt\n}\n')).toThrow(/unknown field attribute/);
    expect(() => parsePrismaSchema('model A {\n  id String @id\n  @@map("a")\n}\n')).toThrow(/unknown model attribute/);
    expect(() => parsePrismaSchema('view V {\n}\n')).toThrow(/unexpected line/);
  });
});
