// A strict reader of the subset of Prisma schema language this project uses, for the
// drift test. It throws on any line it does not understand, so a schema feature added
// later cannot slip past the test unchecked.
export interface SchemaField {
  name: string;
  type: string;
  optional: boolean;
  list: boolean;
  attributes: string;
}

export interface SchemaIndex {
  name: string;
  columns: Array<{ name: string; desc: boolean; ops?: string }>;
  method: 'btree' | 'gin';
  unique?: boolean;
}

export interface SchemaModel {
  name: string;
  fields: SchemaField[];
  primaryKey: string[];
  indexes: SchemaIndex[];
  relations: Array<{ fields: string[]; model: string; references: string[]; onDelete: string }>;
}

export interface ParsedSchema {
  enums: Map<string, string[]>;
  models: Map<string, SchemaModel>;
}

const stripComment = (line: string) => line.replace(/\/\/.*$/, '').trim();

function parseIndexColumns(list: string): SchemaIndex['columns'] {
  return list.split(/,(?![^(]*\))/).map((raw) => {
    const part = raw.trim();
    const m = /^(\w+)(?:\((.*)\))?$/.exec(part);
    if (!m) throw new Error(`drift: cannot read index column "${part}"`);
    const args = m[2] ?? '';
    const ops = /ops:\s*raw\("(\w+)"\)/.exec(args)?.[1];
    const rest = args.replace(/ops:\s*raw\("\w+"\)/, '').replace(/sort:\s*(Desc|Asc)/, '').replace(/[\s,]/g, '');
    if (rest) throw new Error(`drift: unknown index column argument "${args}"`);
    return { name: m[1], desc: /sort:\s*Desc/.test(args), ops };
  });
}

export function parsePrismaSchema(source: string): ParsedSchema {
  const enums = new Map<string, string[]>();
  const models = new Map<string, SchemaModel>();
  const lines = source.split('\n').map(stripComment);
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line) {
      i++;
      continue;
    }
    const block = /^(generator|datasource|enum|model)\s+(\w+)\s*\{$/.exec(line);
    if (!block) throw new Error(`drift: unexpected line "${line}"`);
    const [, kind, name] = block;
    const body: string[] = [];
    for (i++; lines[i] !== '}'; i++) {
      if (i >= lines.length) throw new Error(`drift: unterminated ${kind} ${name}`);
      if (lines[i]) body.push(lines[i]);
    }
    i++;
    if (kind === 'enum') enums.set(name, body);
    if (kind === 'model') models.set(name, parseModel(name, body));
  }
  return { enums, models };
}

function parseModel(name: string, body: string[]): SchemaModel {
  const model: SchemaModel = { name, fields: [], primaryKey: [], indexes: [], relations: [] };
  for (const line of body) {
    if (line.startsWith('@@id(')) {
      const m = /^@@id\(\[([\w,\s]+)\]\)$/.exec(line);
      if (!m) throw new Error(`drift: cannot read "${line}"`);
      model.primaryKey = m[1].split(',').map((s) => s.trim());
      continue;
    }
    if (line.startsWith('@@index(')) {
      const m = /^@@index\(\[(.+)\](.*)\)$/.exec(line);
      if (!m) throw new Error(`drift: cannot read "${line}"`);
      const columns = parseIndexColumns(m[1]);
      const options = m[2];
      const map = /map:\s*"(\w+)"/.exec(options)?.[1];
      const type = /type:\s*(\w+)/.exec(options)?.[1];
      const leftover = options.replace(/map:\s*"\w+"/, '').replace(/type:\s*\w+/, '').replace(/[\s,]/g, '');
      if (leftover || (type && type !== 'Gin')) throw new Error(`drift: unknown index option in "${line}"`);
      model.indexes.push({
        name: map ?? `${name}_${columns.map((c) => c.name).join('_')}_idx`,
        columns,
        method: type === 'Gin' ? 'gin' : 'btree',
      });
      continue;
    }
    if (line.startsWith('@@unique(')) {
      const m = /^@@unique\(\[([\w,\s]+)\]\)$/.exec(line);
      if (!m) throw new Error(`drift: cannot read "${line}"`);
      const columns = m[1].split(',').map((c) => ({ name: c.trim(), desc: false }));
      // Prisma names a compound unique index <Model>_<field>_<field>_key.
      model.indexes.push({ name: `${name}_${columns.map((c) => c.name).join('_')}_key`, columns, method: 'btree', unique: true });
      continue;
    }
    if (line.startsWith('@@')) throw new Error(`drift: unknown model attribute "${line}"`);
    const m = /^(\w+)\s+(\w+)(\[\]|\?)?\s*(.*)$/.exec(line);
    if (!m) throw new Error(`drift: cannot read field "${line}"`);
    const [, fieldName, type, modifier = '', attributes] = m;
    const known = attributes
      .replace(/@id\b/, '')
      .replace(/@default\((now\(\)|\d+|true|false|[A-Z][A-Z0-9_]*|"[\w-]*")\)/, '')
      .replace(/@unique\b/, '')
      .replace(/@db\.Timestamptz\(3\)/, '')
      // numeric without precision or scale (the drift test maps Decimal to numeric).
      .replace(/@db\.Decimal\b(?!\()/, '')
      .replace(/@relation\(fields:\s*\[(\w+)\],\s*references:\s*\[(\w+)\],\s*onDelete:\s*(\w+)\)/, '')
      .trim();
    if (known) throw new Error(`drift: unknown field attribute "${known}" on ${name}.${fieldName}`);
    const relation = /@relation\(fields:\s*\[(\w+)\],\s*references:\s*\[(\w+)\],\s*onDelete:\s*(\w+)\)/.exec(attributes);
    if (relation) {
      model.relations.push({ fields: [relation[1]], model: type, references: [relation[2]], onDelete: relation[3] });
    }
    if (/@id\b/.test(attributes)) model.primaryKey = [fieldName];
    // Prisma names a field's unique index <Model>_<field>_key.
    if (/@unique\b/.test(attributes)) {
      model.indexes.push({ name: `${name}_${fieldName}_key`, columns: [{ name: fieldName, desc: false }], method: 'btree', unique: true });
    }
    model.fields.push({ name: fieldName, type, optional: modifier === '?', list: modifier === '[]', attributes });
  }
  return model;
}
