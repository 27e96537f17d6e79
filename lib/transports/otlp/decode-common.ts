// What the protobuf and JSON decoders share: the nesting limit, the path-carrying error
// that becomes one AppError naming the place, and how values land in Attributes.
import { AppError } from '@/lib/core/errors';
import type { AttributeValue, Attributes } from '@/lib/features/otlp/shared';

/** Deepest AnyValue nesting accepted (a top-level attribute value is level 1); deeper refuses the request. */
export const MAX_ANY_VALUE_DEPTH = 64;

/** A problem at a path inside the request; turned into one AppError at the top. */
export class Invalid extends Error {
  constructor(
    public path: string,
    readonly problem: string,
  ) {
    super(problem);
  }
}

export function within(err: unknown, segment: string): unknown {
  if (err instanceof Invalid) err.path = err.path === '' ? segment : err.path.startsWith('[') ? segment + err.path : `${segment}.${err.path}`;
  return err;
}

export function toAppError(err: unknown, prefix: string): unknown {
  return err instanceof Invalid ? new AppError('VALIDATION', `${prefix}: ${err.path} ${err.problem}`) : err;
}

/** The path segment of a top-level attribute, its key cut short: the message goes back to the sender. */
export function attributeSegment(key: string): string {
  return `attributes[${JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key)}]`;
}

export const tooDeep = () => new Invalid('', `is nested deeper than ${MAX_ANY_VALUE_DEPTH} levels`);

/** Sets a key the way JSON.parse would: `__proto__` becomes an own property, not the prototype. */
export function put(target: Attributes, key: string, value: AttributeValue): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
