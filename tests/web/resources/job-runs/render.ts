export { renderWorkflows as renderRuns, WORKFLOWS_TIMEOUT_MS as RUNS_TIMEOUT_MS, mockPolicies, plainUser } from '../workflows/render';
