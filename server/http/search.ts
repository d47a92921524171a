import { and, desc, eq, getTableName, ilike, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { isRowSecured, type Db } from '../db/client';
import { tableWatchOf } from '../db/table-watch';
import { COUNT_CAP, likePattern } from './lists';

/**
 * Substring searches of the big lists, read through a trigram index by the rare part of the text.
 *
 * A trigram index answers `ilike '%text%'` by intersecting the index entries of every three
 * letters of the text. Letters every row has (a company's email domain, "user" in every user
 * name) have entries as long as the table, and walking them costs more than the rest of the call:
 * searching `ada@acme.test` in a company whose addresses all end in `acme.test` reads the entries
 * of `acm`, `cme`, `tes`, `est` for every row. So the index is asked only for the longest run of the
 * text whose three-letter groups are rare among the company's newest rows, and the whole text is
 * checked on the rows it finds: the same answer, for a fraction of the reading.
 */

/** A list's search: the table, the one expression searched (searchText) and its index's column order. */
export interface SearchedList {
  /** Its name for the database's search function (migration 0011, company_search_ids). */
  name: 'users' | 'system_audits' | 'access_events';
  table: PgTable;
  idColumn: AnyColumn;
  /** The expression a trigram index covers (lists.ts, searchText). */
  text: SQL;
  companyColumn: AnyColumn;
  /** Newest first: the rows sampled to tell rare letters from common ones. */
  newestColumn: AnyColumn;
}

/** Rows sampled per company and list; fewer than MIN_SAMPLE rows and the list is small enough to search as it is. */
const SAMPLE_ROWS = 1_000;
const MIN_SAMPLE = 100;
/** A group of three letters found in more than this share of the sample is common. */
const COMMON_SHARE = 0.02;
/** Samples are kept this long: how common letters are changes slowly. */
const SAMPLE_TTL_MS = 10 * 60_000;
const SAMPLES_MAX = 300;
/** Where rows are held to their company: the sampled texts are kept this long (a longer one is cut), and the company's rows counted this far. */
const SAMPLE_TEXT_CHARS = 200;
const COMPANY_ROWS_CAP = 1_000_000;
/**
 * What reading one matching row through the search function costs beside checking one row on a
 * walk of the list: the index entries of each three-letter group, the row read again to check the
 * whole text, its id handed back and looked up once more under the policy.
 */
const INDEX_ROW_COST = 3;

interface Sample {
  rows: number;
  /** In how many sampled rows each three-letter group appears. */
  groups: Map<string, number>;
  /** Where rows are held to their company (see rowSecuredWay): the sampled rows' texts, lower-cased and cut at SAMPLE_TEXT_CHARS. */
  texts?: string[];
  /** …and the company's rows in the list, counted up to COMPANY_ROWS_CAP. */
  companyRows?: number;
  takenAt: number;
}

const samplesByDatabase = new WeakMap<object, Map<string, Promise<Sample>>>();

/** Letters and digits, as the trigram extension reads words. */
const WORD = /[\p{L}\p{N}]+/gu;

/** The groups of three letters inside a text's words, lower-cased: those a `%…%` pattern's index search reads. */
export function innerTrigrams(text: string): Set<string> {
  const groups = new Set<string>();
  for (const [word] of text.toLowerCase().matchAll(WORD)) {
    for (let i = 0; i + 3 <= word.length; i++) groups.add(word.slice(i, i + 3));
  }
  return groups;
}

async function sampleOf(db: Db, list: SearchedList, companyId: string): Promise<Sample> {
  const rows = await db
    .select({ text: sql<string>`${list.text}` })
    .from(list.table)
    .where(eq(list.companyColumn, companyId))
    .orderBy(desc(list.newestColumn))
    .limit(SAMPLE_ROWS);
  const groups = new Map<string, number>();
  for (const { text } of rows) for (const group of innerTrigrams(text ?? '')) groups.set(group, (groups.get(group) ?? 0) + 1);
  const sample: Sample = { rows: rows.length, groups, takenAt: Date.now() };
  if (isRowSecured(db) && rows.length >= MIN_SAMPLE) {
    // Sliced, so a kept text holds none of the row's longer text in memory.
    sample.texts = rows.map(({ text }) => (text ?? '').slice(0, SAMPLE_TEXT_CHARS).toLowerCase());
    if (rows.length < SAMPLE_ROWS) sample.companyRows = rows.length;
    else {
      // The company's entries of its (company, newest) index, read up to the cap: an index-only scan.
      const capped = db
        .select({ one: sql`1` })
        .from(list.table)
        .where(eq(list.companyColumn, companyId))
        .limit(COMPANY_ROWS_CAP)
        .as('company_rows');
      const [{ n }] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(capped);
      sample.companyRows = n;
    }
  }
  return sample;
}

function keptSample(db: Db, list: SearchedList, companyId: string): Promise<Sample> {
  const owner = tableWatchOf(db) ?? db;
  let samples = samplesByDatabase.get(owner);
  if (!samples) samplesByDatabase.set(owner, (samples = new Map()));
  const key = `${companyId}\u0000${getTableName(list.table)}`;
  const kept = samples.get(key);
  if (kept) return kept;
  if (samples.size >= SAMPLES_MAX) samples.delete(samples.keys().next().value!);
  const taking = sampleOf(db, list, companyId);
  samples.set(key, taking);
  // Forget it when it is old, or at once if taking it failed.
  taking.then(
    () => setTimeout(() => samples.get(key) === taking && samples.delete(key), SAMPLE_TTL_MS).unref?.(),
    () => samples.get(key) === taking && samples.delete(key),
  );
  return taking;
}

/**
 * The longest run of the search text, inside one word, whose three-letter groups are all rare in
 * the sample; null when the whole text is already rare (search it as it is) or no run is.
 */
export function rarePart(search: string, sample: Pick<Sample, 'rows' | 'groups'>): string | null {
  if (sample.rows < MIN_SAMPLE) return null;
  const limit = sample.rows * COMMON_SHARE;
  const seen = (group: string) => sample.groups.get(group) ?? 0;
  const words = [...search.toLowerCase().matchAll(WORD)].map(([word]) => word);
  let best: { text: string; groups: number; seen: number } | null = null;
  let everyGroupRare = true;
  for (const word of words) {
    const groups = Array.from({ length: Math.max(0, word.length - 2) }, (_, i) => word.slice(i, i + 3));
    if (groups.length === 0) everyGroupRare = false;
    let runStart = -1;
    // One step past the last group closes the last run.
    for (let i = 0; i <= groups.length; i++) {
      const rare = i < groups.length && seen(groups[i]) <= limit;
      if (rare) {
        if (runStart < 0) runStart = i;
        continue;
      }
      if (i < groups.length) everyGroupRare = false;
      if (runStart < 0) continue;
      const run = {
        text: word.slice(runStart, i + 2),
        groups: i - runStart,
        seen: groups.slice(runStart, i).reduce((sum, g) => sum + seen(g), 0),
      };
      if (!best || run.groups > best.groups || (run.groups === best.groups && run.seen < best.seen)) best = run;
      runStart = -1;
    }
  }
  // A text of one word with nothing common in it is its own rare part.
  if (!best || (everyGroupRare && words.length === 1)) return null;
  return best.text;
}

/**
 * Rows a search finds beside those whose text holds it (the entries of the people it names, say),
 * in two forms of the same set: a condition on a row, and a select of their ids.
 */
export interface AlsoFound {
  rows: SQL;
  ids: SQL;
}

/**
 * The condition of a search: `text ilike '%search%'`, asked of the index by its rare part when
 * the company's rows show common letters in it (see above), or one of the `also` rows. Undefined
 * for an empty search.
 */
export async function searchCondition(
  db: Db,
  list: SearchedList,
  companyId: string,
  search: string,
  also?: AlsoFound,
): Promise<SQL | undefined> {
  if (!search) return undefined;
  const pattern = likePattern(search);
  const sample = await keptSample(db, list, companyId);
  if (isRowSecured(db)) return rowSecuredSearch(list, search, pattern, sample, also);
  const part = rarePart(search, sample);
  // lower(text) like lower(pattern) is the same test as ilike, in a form the index does not serve,
  // so the index is read for the rare part only.
  const text = part
    ? and(ilike(list.text as unknown as AnyColumn, likePattern(part)), sql`lower(${list.text}) like lower(${pattern})`)!
    : ilike(list.text as unknown as AnyColumn, pattern);
  // Both sides of the `or` read an index of their own (a BitmapOr).
  return also ? or(text, also.rows) : text;
}

/**
 * The same search where PostgreSQL holds the list to its company (row-level security, migration
 * 0011). There the planner applies the policy before a text condition, so `ilike` never reads the
 * trigram index: the choice the planner made with its statistics is made here, with the sample's.
 * Either the ids come from the database's search function, which reads the index as the tables'
 * owner for the company of the session alone, or the list is walked in its order with the text
 * checked on each row.
 */
function rowSecuredSearch(list: SearchedList, search: string, pattern: string, sample: Sample, also?: AlsoFound): SQL {
  const way = rowSecuredWay(search, sample);
  if (way.walk) {
    const text = sql`lower(${list.text}) like lower(${pattern})`;
    return also ? or(text, also.rows)! : text;
  }
  // The found ids, as rows the statement joins by the primary key. Not `id = any(array)`: that
  // compares each row with every id in turn, and where the planner could not read the ids from the
  // key (beside an `or`) it did so for every row of the company: 25 s for 4,000 ids on 1,000,000
  // rows. The function runs in a sub-select, once as the statement runs: called directly,
  // PostgreSQL also runs the (stable) function while planning, to estimate its rows, and every
  // search paid for it twice. Rows found beside the text join the same set (a union), so the
  // condition stays one join instead of an `or` no index serves.
  const found = sql`select unnest((select company_search_ids(${list.name}, ${likePattern(way.part)}, ${pattern})))`;
  return sql`${list.idColumn} in (${found}${also ? sql` union all ${also.ids}` : sql``})`;
}

export type SearchWay = { walk: true } | { walk: false; part: string };

/**
 * Walk the list, or ask the index (for `part` of the text)? A walk reads rows in the list's order
 * until its page is full and, when it is, counts on until COUNT_CAP matches or the company's last
 * row: about COUNT_CAP / share rows for a text held by `share` of the rows, all of them when
 * fewer match. The index reads the matching rows only, each at a few times the cost. The share
 * is the sampled rows (the company's newest) holding the whole text; none of them, and the index
 * is asked. A small company, or a text without three letters in a word for the index to read,
 * is walked.
 */
export function rowSecuredWay(search: string, sample: Pick<Sample, 'rows' | 'groups' | 'texts' | 'companyRows'>): SearchWay {
  if (sample.rows < MIN_SAMPLE) return { walk: true };
  const part = rarePart(search, sample) ?? (innerTrigrams(search).size > 0 ? search : null);
  if (part === null) return { walk: true };
  const needle = search.toLowerCase();
  const texts = sample.texts ?? [];
  const share = texts.length === 0 ? 0 : texts.filter((text) => text.includes(needle)).length / texts.length;
  if (share === 0) return { walk: false, part };
  const rows = Math.max(sample.companyRows ?? 0, sample.rows);
  const walked = Math.min(rows, (COUNT_CAP + 1) / share);
  const indexed = share * rows * INDEX_ROW_COST;
  return walked <= indexed ? { walk: true } : { walk: false, part };
}
