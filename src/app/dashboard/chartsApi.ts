import { apiRequest } from '../../../providers/http';
import { RUN_STATUSES } from '../../../common/schemas/workflows';
import { CONNECTIONS_BY_TYPE_PATH, dailyRunsPath, PIE_CHARTS_PATH, SIGN_INS_PATH } from './dashboardCalls';

/** The dashboard's chart calls (docs/api/workflows.md "Dashboard"). */

export type RunStatus = (typeof RUN_STATUSES)[number];

/** Runs of one day (queued date, UTC) by status. */
export type DayRuns = { date: string } & Record<RunStatus, number>;

export interface StatusCount {
  status: string;
  count: number;
}

export interface PieCharts {
  runsByStatus: StatusCount[];
  checksByResult: StatusCount[];
}

export interface ConnectionTypeCount {
  type: string;
  label: string;
  count: number;
  active: number;
}

export interface SignInDay {
  date: string;
  signins: number;
  failures: number;
}

interface Answer<T> {
  data?: T;
}

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : Number(value) || 0);

/** `GET /dashboard/dailyJobRunTracker/{from}/{to}?jobRunStatus=`: runs per day by status; one status when given. */
export async function getDailyRuns(from: string, to: string, status: RunStatus | '', signal?: AbortSignal): Promise<DayRuns[]> {
  const answer = await apiRequest<Answer<{ days?: Partial<DayRuns>[] }>>(dailyRunsPath(from, to), {
    query: { jobRunStatus: status || undefined },
    signal,
  });
  return (answer?.data?.days ?? []).map((day) => ({
    date: String(day.date),
    ...(Object.fromEntries(RUN_STATUSES.map((name) => [name, count(day[name])])) as Record<RunStatus, number>),
  }));
}

/** `GET /dashboard/pieCharts`: runs by status and checks by result over the last 30 days. */
export async function getPieCharts(signal?: AbortSignal): Promise<PieCharts> {
  const answer = await apiRequest<Answer<Partial<PieCharts>>>(PIE_CHARTS_PATH, { signal });
  const read = (rows: StatusCount[] | undefined) => (rows ?? []).map((row) => ({ status: String(row.status), count: count(row.count) }));
  return { runsByStatus: read(answer?.data?.runsByStatus), checksByResult: read(answer?.data?.checksByResult) };
}

/** `GET /dashboard/distinctConnections`: the company's connections by type. */
export async function getConnectionsByType(signal?: AbortSignal): Promise<ConnectionTypeCount[]> {
  const answer = await apiRequest<Answer<ConnectionTypeCount[]>>(CONNECTIONS_BY_TYPE_PATH, { signal });
  return (Array.isArray(answer?.data) ? answer.data : []).map((row) => ({ type: String(row.type), label: String(row.label ?? row.type), count: count(row.count), active: count(row.active) }));
}

/** `GET /admin/dashboard/chart`: sign-ins and failed attempts of the last 14 days. */
export async function getSignIns(signal?: AbortSignal): Promise<SignInDay[]> {
  const answer = await apiRequest<Answer<{ days?: SignInDay[] }>>(SIGN_INS_PATH, { signal });
  return (answer?.data?.days ?? []).map((day) => ({ date: String(day.date), signins: count(day.signins), failures: count(day.failures) }));
}
