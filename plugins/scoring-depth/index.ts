export { DepthScoringFilter, DEPTH_KEY, MAX_DEPTH_KEY } from './depth-scoring-filter.js';
