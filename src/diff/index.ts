/** Re-audit: compare two reports (pure), the gates CI applies to the result, and its two renderings. */
export { diffReports, sameRubric, type ReportDiff, type Regression, type Comparison } from './compare.js';
export { evidenceKey, evidenceDelta } from './evidence.js';
export { gateFailures, reportGateFailures, describeRegression, type Gates } from './gates.js';
export { reauditLog } from './log.js';
export { renderDiffMarkdown } from './markdown.js';
