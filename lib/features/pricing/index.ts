// Pricing model calls: the catalog (@pydantic/genai-prices, bundled) and MODEL_PRICES_FILE.
export { priceModelCall, hasTokens } from './price';
export { spanCost, isDuplicateReport, type SpanCost, type SpanCostInput } from './span-cost';
export { usageFromMetadata } from './metadata-usage';
export { type CostSource, type CustomPrice, type ModelCallPrice, type ModelUsage } from './types';
