import { z } from 'zod';
import { CONNECTION_TYPES } from '../../connections';
import { RUN_STATUSES } from '../../schemas/workflows';
import { answer, card } from '../answers';
import { QUALITY_STATUSES } from './quality';

/** The dashboard's cards and charts (server/routes/dashboard.ts). */

/**
 * `GET /dashboard/topCards`: `workflows`, `runsToday`, `failedToday`, `tables`, `failingTables`,
 * `connections`, `users`, `activeUsers`, `invitedUsers`, `roles`, `openSessions`;
 * `GET /admin/dashboard/cards`: `signins24h`, `securityFailures24h`, `mails24h`.
 */
export const dashboardCardsAnswer = answer(z.object({ cards: z.array(card) }));

/** `GET /admin/dashboard/chart`: the last 14 days (UTC), oldest first, each day there. */
export const securityChartAnswer = answer(
  z.object({
    days: z.array(
      z.object({
        /** `YYYY-MM-DD` (UTC). */
        date: z.string(),
        /** Successful sign-ins. */
        signins: z.number().int(),
        /** Failed or blocked security events. */
        failures: z.number().int(),
      }),
    ),
  }),
);

const runCounts = Object.fromEntries(RUN_STATUSES.map((status) => [status, z.number().int()])) as Record<
  (typeof RUN_STATUSES)[number],
  z.ZodNumber
>;

/**
 * `GET /dashboard/dailyJobRunTracker/{from}/{to}`: every day from `from` to `to` (UTC), with the
 * number of runs queued that day in each status (0 for the statuses `jobRunStatus` leaves out).
 */
export const dailyJobRunsAnswer = answer(
  z.object({
    days: z.array(
      z.object({
        /** `YYYY-MM-DD` (UTC). */
        date: z.string(),
        ...runCounts,
      }),
    ),
  }),
);

/** `GET /dashboard/pieCharts`: job runs queued and rule results of the last 30 days, by status (only the statuses that occur). */
export const dashboardPiesAnswer = answer(
  z.object({
    runsByStatus: z.array(z.object({ status: z.enum(RUN_STATUSES), count: z.number().int() })),
    checksByResult: z.array(z.object({ status: z.enum(QUALITY_STATUSES), count: z.number().int() })),
  }),
);

/** `GET /dashboard/distinctConnections`: the company's connections by type (only the types it has), in catalogue order. */
export const connectionsByTypeAnswer = answer(
  z.array(
    z.object({
      type: z.enum(CONNECTION_TYPES),
      /** The type's name in the catalogue. */
      label: z.string(),
      count: z.number().int(),
      /** Of those, the active ones. */
      active: z.number().int(),
    }),
  ),
);
