import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { answer } from '../../../common/contract/answers';
import { qualityRuleListAnswer, type QualityRule } from '../../../common/contract/answers/quality';
import { tablesContract } from '../../../common/contract/tables';
import { FUNCTION_TYPE_OF, PARAMS_OF } from '../../../common/schemas/quality';
import { recordAudit } from '../../audit';
import { ConnectorError } from '../../connectors/types';
import { qualityRules, tableColumns } from '../../db/schema';
import { badRequest, notFound } from '../../http/errors';
import { anyOf, filterBody, orderedPage, searchFilter, searching, textChoiceFilter, type ListAnswer } from '../../http/lists';
import { actionRoute } from '../../platform/action-route';
import { built, type Sent } from '../../platform/answers';
import { audited } from '../../platform/audited';
import { registerListRoutes } from '../../platform/list-routes';
import { checkCompanySql, companySqlDialectOf } from '../../sql/company-sql';
import { findResult, findRun, newestRulesFirst, rulesOf, selectRules, tableRunsPage, type RuleRow } from '../../tables/quality';
import { allFailingRows, failingRowsCsv as csvOf, failingRowsPage } from '../../quality/failing-rows';
import { dictionaryOf, findTable } from '../../tables/records';
import { runTableChecks } from '../../tables/run-checks';
import { allowed, tablePageParams } from './routing';

/** A rule as its query reads it; the query types its newest result (read with json_build_object) as any object. */
type RuleWithResult = Omit<RuleRow, 'lastResult'> & { lastResult: Sent<QualityRule['lastResult']> };

const ruleFilter = filterBody({
  functionType: textChoiceFilter,
  functionName: textChoiceFilter,
  searchText: searchFilter,
  tableId: z.string().optional(),
});

const { saveRule, deleteRule, runChecks, qualityRuns, qualityRun, failingRows, failingRowsCsv } = tablesContract.actions;
const ruleAnswer = answer(saveRule.data);

const ruleSearch = (text: string) => searching([qualityRules.name, qualityRules.functionName, qualityRules.columnName], text);

/**
 * A custom rule's query is checked as it is saved, in the dialect of the table's connection, so a
 * query that may not run is refused now rather than at every run (where it is checked again).
 * Databricks refuses custom SQL (nothing could prove a query there reads only); a connection
 * without SQL saves it as it is.
 */
async function checkCustomSql(query: string, connectionType: string | null | undefined): Promise<void> {
  // Databricks: refused when saved, for the reason a run would give (checkCompanySql says it), not only when run.
  const dialect = connectionType === 'databricks' ? 'databricks' : companySqlDialectOf(connectionType);
  if (!dialect) return;
  try {
    await checkCompanySql(dialect, query);
  } catch (err) {
    if (err instanceof ConnectorError) throw badRequest(`params.sql: ${err.message}`);
    throw err;
  }
}

/**
 * A table's data-quality rules (listed, searched, filtered, saved, deleted) and its manual check
 * runs. The contract's actions: the save (201 when it adds a rule, 200 when it changes one) and
 * the delete `/table/dataQuality/{id}`, and the run `/table/{id}/configure`.
 */
export function registerQualityRoutes(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, secrets, connectors } = api.ctx;
  const reading = allowed('read');
  const updating = allowed('update');

  registerListRoutes(app, reading, {
    answer: qualityRuleListAnswer,
    message: 'Data-quality rules',
    params: tablePageParams,
    page: async (companyId, where, { id, offset, limit }) => {
      await findTable(db, companyId, id);
      const rules = {
        select: () => selectRules(db),
        where: rulesOf(companyId, id, where),
        order: newestRulesFirst,
        countFrom: qualityRules,
      };
      return orderedPage(db, rules, offset, limit) as Promise<ListAnswer<RuleWithResult>>;
    },
    list: { path: '/table/dataQuality/:id/:offset/:limit', summary: "A table's data-quality rules, each with its last result" },
    search: { path: '/tables/dataQuality/search/tableId/:id/:offset/:limit', summary: "Search a table's rules", where: ruleSearch },
    filter: {
      path: '/tables/dataQuality/filter/tableId/:id/:offset/:limit',
      summary: "Filter a table's rules",
      body: ruleFilter,
      where: (f) =>
        and(
          anyOf(qualityRules.functionType, f.functionType ?? []),
          anyOf(qualityRules.functionName, f.functionName ?? []),
          ruleSearch(f.searchText ?? ''),
        ),
    },
  });

  actionRoute(app, updating, saveRule, async ({ auth, params, body, request }) => {
    const table = await findTable(db, auth.companyId, params.id);
    if (body.columnName) {
      const [column] = await db
        .select({ name: tableColumns.name })
        .from(tableColumns)
        .where(dictionaryOf(auth.companyId, table.id, and(eq(tableColumns.name, body.columnName), eq(tableColumns.present, true))));
      if (!column) throw badRequest(`columnName: "${body.columnName}" is not a column of this table`);
    }
    const values = {
      name: body.name,
      functionType: FUNCTION_TYPE_OF[body.functionName],
      functionName: body.functionName,
      columnName: body.columnName || null,
      params: PARAMS_OF[body.functionName].parse(body.params ?? {}) as Record<string, unknown>,
      severity: body.severity,
      tolerance: body.tolerance,
      samplePercent: body.samplePercent ?? null,
      isActive: body.isActive ?? true,
    };
    if (values.functionName === 'custom_sql') await checkCustomSql(String(values.params.sql ?? ''), table.connectionType);
    const existing = body.id
      ? (await selectRules(db).where(rulesOf(auth.companyId, table.id, eq(qualityRules.id, body.id))))[0]
      : undefined;
    if (body.id && !existing) throw notFound('Data-quality rule');
    const ruleId = await audited(
      db,
      request,
      async (tx) => {
        if (existing) {
          await tx
            .update(qualityRules)
            .set({ ...values, updatedAt: new Date() })
            .where(rulesOf(auth.companyId, table.id, eq(qualityRules.id, existing.id)));
          return existing.id;
        }
        const [created] = await tx
          .insert(qualityRules)
          .values({ companyId: auth.companyId, tableId: table.id, ...values, createdBy: auth.userId })
          .returning({ id: qualityRules.id });
        return created.id;
      },
      (recordId) => {
        const entry = { companyId: auth.companyId, model: 'quality_rule', recordId };
        if (!existing) return { ...entry, operation: 'create', changes: { after: { tableId: table.id, ...values } } };
        const { name, functionName, columnName, params, severity, tolerance, isActive } = existing;
        const before = { name, functionName, columnName, params, severity, tolerance, isActive };
        return { ...entry, operation: 'update', changes: { before, after: values } };
      },
    );
    const [rule] = (await selectRules(db).where(rulesOf(auth.companyId, table.id, eq(qualityRules.id, ruleId)))) as RuleWithResult[];
    return {
      status: existing ? 200 : 201,
      answer: built(ruleAnswer, { message: `Rule "${rule.name}" ${existing ? 'saved' : 'added'}`, data: rule }),
    };
  });

  actionRoute(app, allowed('delete'), deleteRule, async ({ auth, params, request }) => {
    const [rule] = await selectRules(db).where(and(eq(qualityRules.companyId, auth.companyId), eq(qualityRules.id, params.id)));
    if (!rule) throw notFound('Data-quality rule');
    const { tableId, name, functionName, columnName } = rule;
    await audited(
      db,
      request,
      (tx) => tx.delete(qualityRules).where(and(eq(qualityRules.companyId, auth.companyId), eq(qualityRules.id, rule.id))),
      {
        companyId: auth.companyId,
        model: 'quality_rule',
        operation: 'delete',
        recordId: rule.id,
        changes: { before: { tableId, name, functionName, columnName } },
      },
    );
    return { message: `Rule "${rule.name}" deleted` };
  });

  // ---- Runs --------------------------------------------------------------------------------------

  actionRoute(app, updating, runChecks, async ({ auth, params: { id }, body, request }) => {
    const { run, outcome, tableName } = await runTableChecks(
      { db, secrets, connectors },
      { companyId: auth.companyId, tableId: id, ruleIds: body.ruleIds, full: body.full, trigger: 'manual', userId: auth.userId },
      (tx, runId, result, rules) =>
        recordAudit(tx, request, {
          companyId: auth.companyId,
          model: 'table',
          operation: 'run_checks',
          recordId: id,
          changes: { after: { runId, status: result.status, rules, ...(body.full ? { full: true } : {}) } },
        }),
    );
    const failed = outcome.results.filter((r) => r.status !== 'passed').length;
    const message =
      outcome.status === 'error'
        ? `The checks of "${tableName}" could not run: ${outcome.error}`
        : `Checks of "${tableName}": ${outcome.results.length - failed} passed, ${failed} did not`;
    return { message, data: run };
  });

  actionRoute(app, reading, qualityRuns, async ({ auth, params }) => {
    const table = await findTable(db, auth.companyId, params.id);
    const page = await tableRunsPage(db, auth.companyId, table.id, Number(params.offset), Number(params.limit));
    return { message: `Data-quality runs of "${table.name}"`, data: page };
  });

  actionRoute(app, reading, qualityRun, async ({ auth, params }) => {
    const run = await findRun(db, auth.companyId, params.id);
    if (!run) throw notFound('Data-quality run');
    return { message: 'Data-quality run', data: run };
  });

  /** The result of `ruleId` in run `id` of the caller's company, or a 404 naming what is missing. */
  const resultOf = async (companyId: string, runId: string, ruleId: string) => {
    if (!(await findRun(db, companyId, runId))) throw notFound('Data-quality run');
    const result = await findResult(db, companyId, runId, ruleId);
    if (!result) throw notFound('Data-quality result');
    return result;
  };

  // Runs kept before failing rows were stored apart answer the sample of their result.
  actionRoute(app, reading, failingRows, async ({ auth, params }) => {
    const result = await resultOf(auth.companyId, params.id, params.ruleId);
    const offset = Number(params.offset);
    const limit = Number(params.limit);
    const kept = await failingRowsPage(db, auth.companyId, params.id, params.ruleId, offset, limit);
    const page =
      kept.count === 0 && (result.sample?.length ?? 0) > 0
        ? { rows: result.sample!.slice(offset, offset + limit), count: result.sample!.length }
        : kept;
    return { message: `Failing rows of "${result.ruleName}"`, data: page };
  });

  actionRoute(app, reading, failingRowsCsv, async ({ auth, params }) => {
    const result = await resultOf(auth.companyId, params.id, params.ruleId);
    const kept = await allFailingRows(db, auth.companyId, params.id, params.ruleId);
    const rows = kept.length === 0 ? (result.sample ?? []) : kept;
    const file = `${result.ruleName.replace(/[^\w.-]+/g, '_') || 'rule'}-failing-rows.csv`;
    return {
      body: `\uFEFF${csvOf(rows)}\r\n`,
      type: 'text/csv; charset=utf-8',
      headers: { 'content-disposition': `attachment; filename="${file}"`, 'cache-control': 'no-store' },
    };
  });
}
