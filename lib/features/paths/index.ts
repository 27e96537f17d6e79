// Decision paths: one trace's path, the fleet's paths and forks, and where two runs part.
export { pathInsights, parsePathParams, DECISION_CORRECT, type PathInsights, type FleetPath, type FleetFork } from './fleet';
export { forkId, pathId, PATH_ID_PATTERN } from './ids';
export { successfulMatch, SUCCESS_CANDIDATES, type SuccessfulMatch } from './compare';
export { pathReviews, REVIEWED_TRACES_READ, type PathReviews } from './reviews';
export { branchReviewsOf, judgedRightShareOf, type BranchReview } from './branch-reviews';
export { compactPaths, compactPathsOnce } from './compact';
export { pathFilterLabels, type PathFilterLabels } from './describe';
export { partedRuns, type PartedRun, type PartedRuns } from './parted';
export { similarRuns, SIMILAR_RUNS_LIMIT, type SimilarRuns, type SimilarRunsInput, type TurnFigures } from './similar';
