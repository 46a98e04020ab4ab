/** robots.txt (RFC 9309) and Nutch's robots status rules, shared by the protocol plugins. */
export { parseRobotsTxt, agentMatches, decodeRobotsTxt, ROBOTS_MAX_BYTES } from './robots-txt-parser.js';
export { RobotRulesSet, matchPattern, isPathAllowed, normalizePattern, type RobotRule, type RobotRulesMode } from './robot-rules.js';
export { RobotsCache, robotsCacheKey } from './robots-cache.js';
export { RobotRulesParser, robotsAgentNames, MAX_ROBOTS_REDIRECTS, type RobotsFetch, type RobotsResponse } from './robot-rules-parser.js';
