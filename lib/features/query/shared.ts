// lib/features/query: what the browser may import too (types and pure helpers, no server module).
export { needleIn, searchNeedles } from './search-needles';
