import type { FastifyInstance } from 'fastify';
import type { SQL } from 'drizzle-orm';
import { z, type ZodType } from 'zod';
import { pageParams, searchFilter, type Card } from '../http/lists';
import { uuidParam } from '../http/schemas';
import { answerRoute, type AnswerOf, type RouteBase } from './answer-route';

/** The page a list route asks for, with whatever else its path names (the table whose rules are listed, say). */
export interface PagePlace {
  offset: number;
  limit: number;
}

type DataOf<Answer extends ZodType> = AnswerOf<Answer> extends { data: infer Data } ? Data : unknown;

/**
 * The routes of one paged list: the plain list, its filter and search, and the choices and cards
 * its screen shows above it. Every list route answers one page of the same rows, read by `page`
 * with the company's condition for that route; the routes are registered in the order they are
 * written here, which is the order the API reference lists them in.
 */
export interface ListRoutes<Answer extends ZodType, Place extends PagePlace, Filter> {
  answer: Answer;
  /** The message of every page (`Tables`). */
  message: string;
  /** The path's parameters: `{ offset, limit }` unless given. */
  params?: ZodType<Place>;
  /** One page of the company's rows that `where` (when given) holds for. */
  page: (companyId: string, where: SQL | undefined, place: Place) => Promise<DataOf<Answer>>;
  list?: { path: string; summary: string; where?: () => SQL };
  filter?: { path: string; summary: string; body: ZodType<Filter>; where: (filter: Filter) => SQL | undefined };
  search?: { path: string; summary: string; where: (text: string) => SQL | undefined };
  props?: ReadRoute;
  cards?: CardsRoute;
}

/** A route that reads something of the company: a filter bar's choices, say. */
export interface ReadRoute<Answer extends ZodType = ZodType> {
  path: string;
  summary: string;
  answer: Answer;
  message: string;
  data: (companyId: string) => Promise<DataOf<Answer>>;
}

/** The summary cards above a list: `{ message, data: { cards } }`. */
export interface CardsRoute {
  path: string;
  summary: string;
  answer: ZodType;
  message: string;
  cards: (companyId: string) => Promise<Card[]>;
}

const searchQuery = z.object({ searchText: searchFilter });
const idParams = z.object({ id: uuidParam });

export function registerListRoutes<Answer extends ZodType, Place extends PagePlace = PagePlace, Filter = unknown>(
  app: FastifyInstance,
  base: RouteBase,
  lists: ListRoutes<Answer, Place, Filter>,
): void {
  const { answer, message, page } = lists;
  const params = lists.params ?? (pageParams as unknown as ZodType<Place>);
  const paged = (companyId: string, where: SQL | undefined, place: Place) =>
    page(companyId, where, place).then((data) => ({ message, data }) as AnswerOf<Answer>);
  for (const kind of Object.keys(lists)) {
    if (kind === 'list' && lists.list) {
      const { path, summary, where } = lists.list;
      answerRoute(app, base, { method: 'GET', path, summary, params, answer }, ({ auth, params: place }) =>
        paged(auth.companyId, where?.(), place),
      );
    } else if (kind === 'filter' && lists.filter) {
      const { path, summary, body, where } = lists.filter;
      answerRoute(app, base, { method: 'POST', path, summary, params, body, answer }, ({ auth, params: place, body: filter }) =>
        paged(auth.companyId, where(filter), place),
      );
    } else if (kind === 'search' && lists.search) {
      const { path, summary, where } = lists.search;
      answerRoute(app, base, { method: 'GET', path, summary, params, querystring: searchQuery, answer }, ({ auth, params: place, query }) =>
        paged(auth.companyId, where(query.searchText), place),
      );
    } else if (kind === 'props' && lists.props) {
      registerReadRoute(app, base, lists.props);
    } else if (kind === 'cards' && lists.cards) {
      const { cards, ...route } = lists.cards;
      registerReadRoute(app, base, { ...route, data: async (companyId) => ({ cards: await cards(companyId) }) });
    }
  }
}

/** A GET route answering one record of the caller's company, by the id its path names (a missing one is `find`'s 404). */
export function registerFindRoute<Answer extends ZodType>(
  app: FastifyInstance,
  base: RouteBase,
  route: Omit<ReadRoute<Answer>, 'data'> & { find: (companyId: string, id: string) => Promise<DataOf<Answer>> },
): void {
  const { path, summary, answer, message, find } = route;
  answerRoute(
    app,
    base,
    { method: 'GET', path, summary, params: idParams, answer },
    async ({ auth, params }) => ({ message, data: await find(auth.companyId, params.id) }) as AnswerOf<Answer>,
  );
}

/** A GET route answering `{ message, data }` from the caller's company alone. */
export function registerReadRoute<Answer extends ZodType>(app: FastifyInstance, base: RouteBase, route: ReadRoute<Answer>): void {
  const { path, summary, answer, message, data } = route;
  answerRoute(
    app,
    base,
    { method: 'GET', path, summary, answer },
    async ({ auth }) => ({ message, data: await data(auth.companyId) }) as AnswerOf<Answer>,
  );
}
