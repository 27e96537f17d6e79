// lib/features/otlp: what the browser may import too (types and pure helpers, no server module).
export { type Attributes, type AttributeValue, type OtlpEvent, type OtlpLogRecord, type OtlpResource, type OtlpScope, type OtlpSpan } from './types';
export { tokenSplitOf, type TokenSplit } from './conventions/stored-usage';
