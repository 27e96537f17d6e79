// lib/features/pricing: what the browser may import too (types and pure helpers, no server module).
export { usageCounts, usageFromMetadata } from './metadata-usage';
export { type CustomPrice, type ModelUsage } from './types';
