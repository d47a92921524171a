import { notifyTask } from '../../../common/schemas/workflows';
import { sendSlackMessage } from '../../connectors/slack';
import { escapeHtml } from '../../mail/templates';
import type { TaskExecutor } from '../types';
import type { TaskDeps } from './deps';
import { runLink } from './run-link';
import { messageOf, taskFields } from './task-fields';
import { workflowConnections } from './workflow-connections';

/**
 * The `notify` task: the message, with the workflow's name and a link to the run, posted to Slack
 * through the task's Slack connection and mailed to each address (through SMTP when the server
 * has it; kept in the outbox otherwise). Every send is tried; any that fails fails the task,
 * saying which and why.
 */
export function notifyExecutor(deps: TaskDeps): TaskExecutor {
  return async (task, context) => {
    const fields = taskFields(notifyTask, task);
    const link = runLink(deps.config, context.runId);
    const text = `${fields.message}\n\nWorkflow "${context.workflowName}", run ${link}`;
    const failures: string[] = [];

    if (fields.slackConnectionId) {
      try {
        const connections = await workflowConnections(deps, context);
        const slack = await connections.connection(fields.slackConnectionId, 'Slack');
        if (slack.type !== 'slack') throw new Error(`Slack: "${slack.name}" is not a Slack connection`);
        const posted = await sendSlackMessage(slack, { text }, { http: { reach: deps.connectors.context.reach } });
        await context.log(`Posted to Slack through "${slack.name}"${posted.channel ? ` in ${posted.channel}` : ''}`);
      } catch (error) {
        // The Slack connector's messages name Slack already ("Slack: no_service (HTTP 404)").
        failures.push(messageOf(error));
      }
    }

    const emails = fields.emails ?? [];
    for (const to of emails) {
      const sent = await deps.mailer.send({
        companyId: context.companyId,
        to,
        kind: 'workflow_notification',
        subject: `${context.workflowName}: ${firstLine(fields.message)}`,
        text,
        html: `<p>${escapeHtml(fields.message).replace(/\n/g, '<br>')}</p><p>Workflow "${escapeHtml(context.workflowName)}", <a href="${escapeHtml(link)}">run ${escapeHtml(context.runId)}</a></p>`,
      });
      if (sent.status === 'failed') failures.push(`mail to ${to}: ${sent.error ?? 'not sent'}`);
      else await context.log(`Mailed ${to}${sent.status === 'stored' ? ' (kept in the mail outbox: the server sends no mail)' : ''}`);
    }

    if (!fields.slackConnectionId && emails.length === 0)
      await context.log('Nothing to send: the task names no Slack connection and no address');
    if (failures.length > 0) throw new Error(`The notification was not delivered everywhere: ${failures.join('; ')}`);
    return {};
  };
}

/** A mail's subject: the message's first line, cut at 80 characters. */
function firstLine(message: string): string {
  const line = message.trim().split('\n')[0]!.trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
