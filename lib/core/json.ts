// A JSON value as stored and answered: what every payload, metadata and attribute is.
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
