import type { MakeReportBody } from '../../../common/schemas/reports';
import { API_BASE, ApiError, apiRequest, pathId, type Answer, type Saved } from '../../../providers/http';
import { getAccessToken } from '../../../providers/storage';

/** The reports area's calls (docs/api/reports.md). */

export interface HeadlineFigure {
  key: string;
  label: string;
  value: number;
}

export interface ReportAttachment {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
}

export interface ReportRow {
  id: string;
  kind: 'weekly' | 'on_demand';
  title: string;
  periodStart: string;
  periodEnd: string;
  periodLabel: string;
  timezone: string;
  format: 'pdf' | 'csv';
  recipients: string[];
  createdBy: string | null;
  createdByName: string | null;
  createdAt: string;
  sentAt: string | null;
  headline: HeadlineFigure[];
  attachments: ReportAttachment[];
}

export interface Growth {
  total: number;
  added: number;
}

export interface ReportSummary {
  runs: {
    total: number;
    byStatus: Record<string, number>;
    failed: number;
    rowsCopied: number;
    failingWorkflows: Array<{ workflowId: string; name: string; failures: number }>;
  };
  quality: {
    runs: number;
    runsByStatus: Record<string, number>;
    checks: number;
    checksByResult: Record<string, number>;
    failedChecks: Array<{ tableId: string; table: string; rule: string; column: string | null; failures: number }>;
  };
  security: Record<'signIns' | 'failedSignIns' | 'blocked' | 'failedCodes' | 'newSessions' | 'impersonations' | 'addresses', number>;
  usage: {
    activeUsers: number;
    newUsers: number;
    connections: Growth;
    tables: Growth;
    workflows: Growth;
    changes: number;
    apiKeyChanges: number;
    apiKeyRuns: number;
  };
}

export interface ReportDetail extends ReportRow {
  summary: ReportSummary;
}

export interface ReportList {
  rows: ReportRow[];
  count: number;
  countExact?: boolean;
}

export async function listReports(offset: number, limit: number, signal?: AbortSignal): Promise<ReportList> {
  return (await apiRequest<Answer<ReportList>>(`/reports/${offset}/${limit}`, { signal })).data;
}

export async function getReport(id: string, signal?: AbortSignal): Promise<ReportDetail> {
  return (await apiRequest<Answer<ReportDetail>>(`/reports/${pathId(id)}`, { signal })).data;
}

export async function makeReport(body: MakeReportBody): Promise<Saved<ReportDetail>> {
  const answer = await apiRequest<Answer<ReportDetail>>('/reports', { method: 'POST', body });
  return { message: answer.message, data: answer.data };
}

/**
 * Downloads a report's file. The call needs the token header like every other, so it cannot be
 * a plain link: the file is fetched, then handed to the browser as a download under its name.
 */
export async function downloadAttachment(reportId: string, file: ReportAttachment): Promise<void> {
  const token = getAccessToken();
  const response = await fetch(`${API_BASE}/reports/${pathId(reportId)}/attachments/${pathId(file.id)}`, {
    headers: { accept: file.contentType, ...(token ? { 'x-access-token': token } : {}) },
  });
  if (!response.ok) {
    let message = response.statusText || `Request failed with status ${response.status}`;
    try {
      const body = (await response.json()) as { message?: unknown };
      if (typeof body?.message === 'string' && body.message) message = body.message;
    } catch {
      // Not JSON: the status says what happened.
    }
    throw new ApiError(message, response.status, null);
  }
  saveBlob(await response.blob(), file.fileName);
}

function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** 5210 → "5.1 KB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
