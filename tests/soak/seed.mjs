import { hashPassword } from '../../server/auth/passwords.ts';
import { seedListData } from '../bench/lists.mjs';

/**
 * The soak tenant: the list benchmark's users, audits and access events (tests/bench/lists.mjs:
 * 100,000 users, 1,000,000 audit rows, 200,000 access events, beside another tenant), plus what
 * the other lists a person browses show: connections and their pairs, workflows, ended job runs
 * with their steps, and notifications. Then `simulatedUsers` of the seeded users get a password
 * and an admin role, so each simulated person signs in as someone of their own.
 *
 * `exec(sql)` runs one statement, `query(sql)` answers its rows, on the server's database while
 * the server is stopped (PGlite allows one process) or running (PostgreSQL).
 */

export const EXTRA = { connections: 300, pairs: 30, workflows: 500, runs: 50_000, notifications: 100_000 };

export const USER_PASSWORD = 'Soak-user-pass-1';

/** The seeded user a simulated person `n` (1-based) signs in as. */
export const simulatedEmail = (n) => `bench-user${n}@example.test`;

export async function seedSoakData(exec, query, hostname, { simulatedUsers }) {
  await seedListData(exec, query, hostname);
  const [company] = await query(`select id from companies where hostname = '${hostname}'`);
  const [admin] = await query(
    `select u.id from users u join roles r on r.id = u.role_id where u.company_id = '${company.id}' and r.is_admin order by u.created_at limit 1`,
  );
  const [adminRole] = await query(`select id from roles where company_id = '${company.id}' and is_admin order by created_at limit 1`);
  await seedConsoleAreas(exec, company.id, admin.id);
  const hash = await hashPassword(USER_PASSWORD);
  const emails = Array.from({ length: simulatedUsers }, (_, i) => `'${simulatedEmail(i + 1)}'`).join(', ');
  await exec(`
    update users set password_hash = '${hash}', status = 'active', is_active = true, role_id = '${adminRole.id}', password_changed_at = now()
    where company_id = '${company.id}' and email in (${emails})`);
  await exec('analyze');
}

async function seedConsoleAreas(exec, companyId, adminId) {
  const c = `'${companyId}'::uuid`;
  await exec(`
    insert into connections (company_id, name, description, type, is_source, is_destination, settings, is_active, last_tested_at, last_test_ok, last_test_latency_ms, created_by, created_at)
    select ${c}, 'Connection ' || g, 'Seeded for the soak run', (array['postgresql','mysql'])[1 + g % 2], g % 3 <> 0, g % 3 <> 1,
           jsonb_build_object('host', 'db' || g || '.example.test', 'port', case when g % 2 = 0 then 5432 else 3306 end, 'database', 'warehouse', 'user', 'reader', 'ssl', 'disable'),
           g % 20 <> 0, now() - (g || ' hours')::interval, g % 7 <> 0, 5 + g % 40, '${adminId}', now() - (g || ' hours')::interval
    from generate_series(1, ${EXTRA.connections}) g`);
  await exec(`
    insert into source_destinations (company_id, name, source_id, destination_id, created_by)
    select ${c}, 'Pair ' || n, s.id, d.id, '${adminId}'
    from (select id, row_number() over (order by name) n from connections where company_id = ${c} and is_source and name like 'Connection %') s
    join (select id, row_number() over (order by name) n from connections where company_id = ${c} and is_destination and name like 'Connection %') d using (n)
    where n <= ${EXTRA.pairs}`);
  await exec(`
    insert into workflows (company_id, name, description, pair_id, tasks, is_active, created_by, created_at)
    select ${c}, 'Workflow ' || g, 'Nightly load ' || g, p.ids[1 + g % array_length(p.ids, 1)],
           jsonb_build_array(jsonb_build_object('id', 'notify', 'name', 'Tell the team', 'type', 'notify', 'message', 'Loaded')),
           g % 25 <> 0, '${adminId}', now() - (g || ' hours')::interval
    from generate_series(1, ${EXTRA.workflows}) g,
         (select array_agg(id) ids from source_destinations where company_id = ${c}) p`);
  await exec(`
    insert into job_runs (company_id, workflow_id, status, trigger, triggered_by, attempt, engine, error, queued_at, started_at, ended_at)
    select ${c}, w.ids[1 + g % array_length(w.ids, 1)], s.status, 'manual', '${adminId}', 1, 'local',
           case when s.status = 'failed' then 'The copy failed after 1,000 rows were read' end,
           now() - ((g * 2) || ' minutes')::interval, now() - ((g * 2) || ' minutes')::interval + interval '1 second',
           now() - ((g * 2) || ' minutes')::interval + interval '20 seconds'
    from generate_series(1, ${EXTRA.runs}) g,
         (select array_agg(id) ids from workflows where company_id = ${c}) w,
         lateral (select (array['succeeded','succeeded','succeeded','failed','canceled','timed_out'])[1 + (g % 6)] as status) s`);
  await exec(`
    insert into job_run_steps (company_id, run_id, position, task_id, name, type, status, started_at, ended_at, log)
    select company_id, id, 0, 'notify', 'Tell the team', 'notify', case when status = 'succeeded' then 'succeeded' else 'failed' end,
           started_at, ended_at, 'Nothing to send: the task names no Slack connection and no address'
    from job_runs where company_id = ${c}`);
  await exec(`
    insert into notifications (company_id, user_id, type, title, message, link, status, created_at)
    select ${c}, u.ids[1 + g % array_length(u.ids, 1)], (array['job_failed','invitation_accepted','role_changed'])[1 + g % 3],
           'Notice ' || g, 'Something happened (' || g || ')', '/workflows', case when g % 4 = 0 then 'unread' else 'read' end,
           now() - (g || ' minutes')::interval
    from generate_series(1, ${EXTRA.notifications}) g,
         (select array_agg(id) ids from (select id from users where company_id = ${c} order by email limit 300) s) u`);
}
