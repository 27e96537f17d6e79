// lib/features/paths: what the browser may import too (types and pure helpers, no server module).
export { type BranchReview, judgedRightShareOf } from './branch-reviews';
export { forkId, PATH_ID_PATTERN } from './ids';
export { comparePathOrder, errorShare, firstDifference, noOutcomes, type Outcomes, type PathDecision, pathOf, sameOption, sameStep, type Step } from './steps';
export { AGENT_NAMES_SHOWN } from './agents';
