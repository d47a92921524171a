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

/** The days of a daily runs answer, every status counted. */
export function readDailyRuns(payload: unknown): DayRuns[] {
  const answer = payload as Answer<{ days?: Partial<DayRuns>[] }> | null;
  return (answer?.data?.days ?? []).map((day) => ({
    date: String(day.date),
    ...(Object.fromEntries(RUN_STATUSES.map((name) => [name, count(day[name])])) as Record<RunStatus, number>),
  }));
}

/** `GET /dashboard/dailyJobRunTracker/{from}/{to}?jobRunStatus=`: runs per day by status; one status when given. */
export async function getDailyRuns(from: string, to: string, status: RunStatus | '', signal?: AbortSignal): Promise<DayRuns[]> {
  return readDailyRuns(await apiRequest(dailyRunsPath(from, to), { query: { jobRunStatus: status || undefined }, signal }));
}

export function readPieCharts(payload: unknown): PieCharts {
  const answer = payload as Answer<Partial<PieCharts>> | null;
  const read = (rows: StatusCount[] | undefined) => (rows ?? []).map((row) => ({ status: String(row.status), count: count(row.count) }));
  return { runsByStatus: read(answer?.data?.runsByStatus), checksByResult: read(answer?.data?.checksByResult) };
}

/** `GET /dashboard/pieCharts`: runs by status and checks by result over the last 30 days. */
export async function getPieCharts(signal?: AbortSignal): Promise<PieCharts> {
  return readPieCharts(await apiRequest(PIE_CHARTS_PATH, { signal }));
}

export function readConnectionsByType(payload: unknown): ConnectionTypeCount[] {
  const answer = payload as Answer<ConnectionTypeCount[]> | null;
  return (Array.isArray(answer?.data) ? answer.data : []).map((row) => ({
    type: String(row.type),
    label: String(row.label ?? row.type),
    count: count(row.count),
    active: count(row.active),
  }));
}

/** `GET /dashboard/distinctConnections`: the company's connections by type. */
export async function getConnectionsByType(signal?: AbortSignal): Promise<ConnectionTypeCount[]> {
  return readConnectionsByType(await apiRequest(CONNECTIONS_BY_TYPE_PATH, { signal }));
}

export function readSignIns(payload: unknown): SignInDay[] {
  const answer = payload as Answer<{ days?: SignInDay[] }> | null;
  return (answer?.data?.days ?? []).map((day) => ({ date: String(day.date), signins: count(day.signins), failures: count(day.failures) }));
}

/** `GET /admin/dashboard/chart`: sign-ins and failed attempts of the last 14 days. */
export async function getSignIns(signal?: AbortSignal): Promise<SignInDay[]> {
  return readSignIns(await apiRequest(SIGN_INS_PATH, { signal }));
}
