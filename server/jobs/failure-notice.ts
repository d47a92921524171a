import type { Secrets } from '../auth/secrets';
import { connectionConfig } from '../connections/records';
import { sendSlackMessage, type SlackOptions } from '../connectors/slack';
import type { Db } from '../db/client';
import type { Mailer } from '../mail/mailer';
import { notify } from '../notify';
import { appendRunLog, type RunEnding, type RunRecord, type WorkflowForRun } from './run-store';

/**
 * Tells people that a run failed or timed out: in the console (the user who started it, else the
 * workflow's creator), and on Slack and by mail when the workflow asks for it. A notice that cannot
 * be sent is written in the run's log; it never changes how the run ended.
 */

export interface NoticeDeps {
  db: Db;
  secrets: Secrets;
  mailer: Mailer;
  /** The run's page in the console, as a full address for Slack messages and mails. */
  runLink(runId: string): string;
  /** How Slack is reached: the reach guard, time limit and retries. */
  slack: SlackOptions;
}

export const runPath = (runId: string) => `/job-runs/${runId}/show`;

export async function sendFailureNotice(deps: NoticeDeps, run: RunRecord, workflow: WorkflowForRun, ending: RunEnding): Promise<void> {
  const timedOut = ending.status === 'timed_out';
  const what = timedOut ? 'timed out' : 'failed';
  // Whole sentences, so that the console can word each title in the reader's language.
  const title = timedOut ? `Workflow "${workflow.name}" timed out` : `Workflow "${workflow.name}" failed`;
  const reason = ending.error ?? 'No reason was given';
  const link = deps.runLink(run.id);
  const attemptNote = workflow.maxRetries > 0 ? ` (attempt ${run.attempt} of ${workflow.maxRetries + 1})` : '';
  const sentence = `The run of the workflow "${workflow.name}"${attemptNote} ${what}: ${reason}`;
  const settings = workflow.notifyOnFailure;

  const notices = [
    settings.inApp !== false && notifyInApp(deps, run, workflow, title, reason),
    settings.slackConnectionId && postToSlack(deps, run.companyId, settings.slackConnectionId, `${title}\n${sentence}\n${link}`),
    ...(settings.emails ?? []).map((to) =>
      mailTo(deps, run.companyId, to, title, [sentence, '', `Open the run: ${link}`, '', '— DataOps Console'].join('\n')),
    ),
  ].filter((notice): notice is Promise<void> => !!notice);

  const problems = (await Promise.allSettled(notices)).flatMap((outcome) =>
    outcome.status === 'rejected' ? [(outcome.reason as Error).message] : [],
  );
  for (const problem of problems) await appendRunLog(deps.db, run.companyId, run.id, problem);
}

async function notifyInApp(deps: NoticeDeps, run: RunRecord, workflow: WorkflowForRun, title: string, reason: string): Promise<void> {
  const recipient = run.triggeredBy ?? workflow.createdBy;
  if (!recipient) return;
  try {
    await notify(deps.db, {
      companyId: run.companyId,
      to: [recipient],
      type: 'job_failed',
      title,
      message: reason,
      link: runPath(run.id),
      createdBy: null,
    });
  } catch (error) {
    throw new Error(`The notification in the console could not be written: ${(error as Error).message}`, { cause: error });
  }
}

async function postToSlack(deps: NoticeDeps, companyId: string, connectionId: string, text: string): Promise<void> {
  try {
    const config = await connectionConfig(deps.db, deps.secrets, companyId, connectionId);
    if (config.type !== 'slack') throw new Error(`the connection "${config.name}" is not a Slack connection`);
    if (!config.isActive) throw new Error(`the Slack connection "${config.name}" is deactivated`);
    await sendSlackMessage(config, { text }, deps.slack);
  } catch (error) {
    throw new Error(`The Slack message about this failure could not be sent: ${(error as Error).message}`, { cause: error });
  }
}

async function mailTo(deps: NoticeDeps, companyId: string, to: string, subject: string, text: string): Promise<void> {
  let problem: string | undefined;
  try {
    const sent = await deps.mailer.send({ companyId, to, subject, text, kind: 'job_failed' });
    if (sent.status === 'failed') problem = sent.error;
  } catch (error) {
    problem = (error as Error).message;
  }
  if (problem !== undefined) throw new Error(`The mail about this failure to ${to} could not be sent: ${problem}`);
}
