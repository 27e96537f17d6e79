// getDescription payloads built from field definitions.
import 'server-only';
import type { OutElement } from '@/lib/transports/soap/codec';
import { describeFieldJson, describeGroup, type FieldDef } from '@/lib/transports/soap/fields';
import type { KeySpec, Payload } from '@/lib/transports/soap/registry';

export interface DescribedGroup {
  tag: 'GRP' | 'TAB';
  name: string;
  fields: FieldDef[];
}

export function description(publicName: string, groups: DescribedGroup[], filters?: KeySpec): Payload {
  const children: OutElement[] = groups.map((g) => describeGroup(g.tag, g.name, g.fields));
  if (filters && filters.names.length) {
    // Query filters are not all fields (search is a substring match), so they are listed apart.
    children.push({
      tag: 'FILTERS',
      children: filters.names.map((n) => ({
        tag: 'FLT',
        attrs: [['NAM', n], ...(filters.required.includes(n) ? [['REQ', '1'] as [string, string]] : [])],
      })),
    });
  }
  return {
    xml: { tag: 'ADXDESC', attrs: [['NAM', publicName]], children },
    json: {
      publicName,
      groups: groups.map((g) => ({ kind: g.tag, name: g.name, fields: g.fields.map(describeFieldJson) })),
      ...(filters ? { filters: filters.names.map((n) => ({ name: n, required: filters.required.includes(n) })) } : {}),
    },
  };
}
