import { and, eq, isNull } from 'drizzle-orm';
import { companies, reports } from '../db/schema';
import { DEFAULT_REPORT_FORMAT } from '../../common/schemas/reports';
import { dueWeek } from './period';
import { defaultLinkBase, deliverReport, makeReport, reportCompany, type ReportServices } from './reports';
import { asSystem, withTenant } from '../db/tenant-scope';

/** How often the sweep looks for companies whose weekly report is due. */
export const WEEKLY_SWEEP_INTERVAL_MS = 15 * 60_000;

export interface SweepResult {
  /** Weekly reports this sweep made and mailed. */
  made: number;
  /** Reports a crash had left stored but unsent, mailed now. */
  delivered: number;
  /** Companies whose report could not be made (the error is logged; the next sweep tries again). */
  failed: number;
}

/**
 * Makes the latest due weekly report (the week before the last Monday 07:00 on the company's
 * clocks) of every active company that lacks it, and mails weekly reports left unsent. Safe to
 * run on several servers at once: the unique index on (company, period start) lets one of them
 * store a week's report, and the sentAt claim lets one of them mail it. A company is not sent a
 * report of a week that ended before it existed.
 */
export async function sweepWeeklyReports(
  services: ReportServices,
  now = new Date(),
  log: (message: string) => void = () => {},
): Promise<SweepResult> {
  const { db } = services;
  const result: SweepResult = { made: 0, delivered: 0, failed: 0 };
  const active = await asSystem(
    'the weekly reports are made for every active company',
    async () => await db.select({ id: companies.id }).from(companies).where(eq(companies.isActive, true)),
  );
  const linkBase = defaultLinkBase(services.config);
  for (const { id } of active) {
    await withTenant(id, () => sweepCompany(services, id, now, linkBase, result, log));
  }
  return result;
}

async function sweepCompany(
  services: ReportServices,
  id: string,
  now: Date,
  linkBase: string,
  result: SweepResult,
  log: (message: string) => void,
): Promise<void> {
  const { db } = services;
  try {
    const company = await reportCompany(db, id);
    if (!company) return;
    const week = dueWeek(now, company.timezone);
    if (week.end.getTime() > company.createdAt.getTime()) {
      const [existing] = await db
        .select({ id: reports.id })
        .from(reports)
        .where(and(eq(reports.companyId, id), eq(reports.kind, 'weekly'), eq(reports.periodStart, week.start)))
        .limit(1);
      if (!existing) {
        const made = await makeReport(services, { company, kind: 'weekly', period: week, format: DEFAULT_REPORT_FORMAT, linkBase, now });
        if (made) result.made += 1;
      }
    }
    const unsent = await db
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.companyId, id), eq(reports.kind, 'weekly'), isNull(reports.sentAt)));
    for (const report of unsent) if (await deliverReport(services, id, report.id, linkBase)) result.delivered += 1;
  } catch (err) {
    result.failed += 1;
    log(`The weekly report of company ${id} was not made: ${(err as Error).message}`);
  }
}

export interface WeeklyReports {
  /** Stops the timer and waits for a sweep under way. */
  stop(): Promise<void>;
}

/**
 * Sweeps now and every 15 minutes (the timer does not keep the process alive); a sweep still
 * under way when the next is due is not doubled.
 */
export function startWeeklyReports(
  services: ReportServices,
  log: (message: string) => void,
  intervalMs = WEEKLY_SWEEP_INTERVAL_MS,
): WeeklyReports {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const sweep = () => {
    if (stopped || running) return;
    running = sweepWeeklyReports(services, new Date(), log)
      .catch((err: Error) => log(`The weekly reports sweep failed: ${err.message}`))
      .finally(() => {
        running = null;
      });
  };
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
