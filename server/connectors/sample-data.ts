import type { Dialect, TableSource } from './types';

/**
 * A small online shop to try the product on: customers, products, orders and their items, with
 * the faults real data has, on purpose, for the data-quality rules to find: missing, repeated and
 * malformed emails, customers not seen for years, negative and absurd order amounts, statuses
 * outside the known set, orders of customers that do not exist, repeated product SKUs.
 *
 * The rows come from a seeded generator, so every shop is the same shop (timestamps are counted
 * back from `now`). Each table is created when missing and filled when empty, by one statement,
 * so a table is either seeded whole or not at all, and seeding again changes nothing.
 */

export const SAMPLE_SHOP_ROWS = { products: 300, customers: 2_000, orders: 10_000, order_items: 25_000 } as const;

export const ORDER_STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;

type ValueType = 'integer' | 'text' | 'money' | 'timestamp';
type Value = number | string | null;

interface ColumnDeclaration {
  name: string;
  type: ValueType;
  /** The type's length or precision: `varchar(200)`, `numeric(12,2)`. */
  size?: string;
  nullable?: boolean;
}

interface SampleTable {
  name: keyof typeof SAMPLE_SHOP_ROWS;
  columns: ColumnDeclaration[];
}

/** Column types by dialect; the PostgreSQL array type is what each column is sent as (one array per column). */
const TYPES: Record<ValueType, Record<Dialect, string> & { postgresArray: string }> = {
  integer: { postgres: 'integer', mysql: 'int', databricks: 'int', postgresArray: 'integer[]' },
  text: { postgres: 'varchar', mysql: 'varchar', databricks: 'varchar', postgresArray: 'text[]' },
  money: { postgres: 'numeric', mysql: 'decimal', databricks: 'decimal', postgresArray: 'numeric[]' },
  timestamp: { postgres: 'timestamptz', mysql: 'datetime', databricks: 'timestamp', postgresArray: 'timestamptz[]' },
};

const TABLES: readonly SampleTable[] = [
  {
    name: 'products',
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'sku', type: 'text', size: '32' },
      { name: 'name', type: 'text', size: '200' },
      { name: 'category', type: 'text', size: '60' },
      { name: 'price', type: 'money', size: '10,2' },
    ],
  },
  {
    name: 'customers',
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'email', type: 'text', size: '200', nullable: true },
      { name: 'full_name', type: 'text', size: '200' },
      { name: 'country', type: 'text', size: '2' },
      { name: 'signed_up_at', type: 'timestamp' },
      { name: 'last_seen_at', type: 'timestamp', nullable: true },
    ],
  },
  {
    name: 'orders',
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'customer_id', type: 'integer' },
      { name: 'status', type: 'text', size: '20' },
      { name: 'total_amount', type: 'money', size: '12,2' },
      { name: 'currency', type: 'text', size: '3' },
      { name: 'ordered_at', type: 'timestamp' },
    ],
  },
  {
    name: 'order_items',
    columns: [
      { name: 'id', type: 'integer' },
      { name: 'order_id', type: 'integer' },
      { name: 'product_id', type: 'integer' },
      { name: 'quantity', type: 'integer' },
      { name: 'unit_price', type: 'money', size: '10,2' },
    ],
  },
];

/** mulberry32: a small, well-spread generator of numbers in [0, 1) from a 32-bit seed. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: (probability: number) => next() < probability,
    between: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

type Random = ReturnType<typeof seededRandom>;

const FIRST_NAMES = [
  'Ada',
  'Bruno',
  'Chloé',
  'Dmitri',
  'Elena',
  'Farah',
  'Gustav',
  'Hana',
  'Ivan',
  'Julia',
  'Kofi',
  'Lena',
  'Mateo',
  'Nora',
  'Oskar',
  'Priya',
  'Quentin',
  'Rosa',
  'Sven',
  'Tariq',
  'Uma',
  'Victor',
  'Wen',
  'Yara',
  'Zoltan',
];
const LAST_NAMES = [
  'Andersen',
  'Baker',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'García',
  'Horvat',
  'Ivanova',
  'Jensen',
  'Kowalski',
  'Laurent',
  'Moreau',
  'Nakamura',
  'Okafor',
  'Petrov',
  'Rossi',
  'Schmidt',
  'Tanaka',
  'Varga',
  'Walsh',
  'Yilmaz',
];
const COUNTRIES = ['DE', 'FR', 'GB', 'US', 'ES', 'IT', 'NL', 'SE', 'PL', 'JP', 'BR', 'CA'];
const MAIL_DOMAINS = ['example.com', 'mail.example', 'inbox.example.org', 'post.example.net'];
const MALFORMED_EMAILS = [
  'no-at-sign.example.com',
  'trailing@',
  '@missing-user.example',
  'two@@example.com',
  'spaces in@example.com',
  'name@domain',
];
const CATEGORIES: Record<string, readonly string[]> = {
  Kitchen: ['Kettle', 'Knife Set', 'Cutting Board', 'Espresso Cup', 'Dutch Oven'],
  Garden: ['Watering Can', 'Pruning Shears', 'Planter', 'Hose Reel', 'Seed Tray'],
  Office: ['Notebook', 'Desk Lamp', 'Fountain Pen', 'Monitor Stand', 'Stapler'],
  Outdoor: ['Tent', 'Headlamp', 'Water Bottle', 'Trail Map', 'Camp Stove'],
  Toys: ['Puzzle', 'Kite', 'Building Blocks', 'Yo-yo', 'Board Game'],
  Audio: ['Headphones', 'Speaker', 'Turntable', 'Cable', 'Microphone'],
};
const ADJECTIVES = ['Classic', 'Compact', 'Deluxe', 'Eco', 'Nordic', 'Pro', 'Travel', 'Vintage'];
const UNKNOWN_STATUSES = ['SHIPPED', 'lost', 'unknown', 'on hold'];
const CURRENCIES = ['EUR', 'EUR', 'EUR', 'USD', 'USD', 'GBP'];

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const money = (cents: number) => (cents / 100).toFixed(2);

interface Shop {
  products: Value[][];
  customers: Value[][];
  orders: Value[][];
  order_items: Value[][];
}

function makeProducts(random: Random): Value[][] {
  const rows: Value[][] = [];
  const categories = Object.keys(CATEGORIES);
  for (let id = 1; id <= SAMPLE_SHOP_ROWS.products; id += 1) {
    const category = random.pick(categories);
    const ownSku = `${category.slice(0, 3).toUpperCase()}-${String(id).padStart(5, '0')}`;
    // A few SKUs typed twice, as catalogues keep them.
    const sku = id > 10 && random.chance(0.015) ? String(rows[random.between(0, rows.length - 1)]![1]) : ownSku;
    rows.push([id, sku, `${random.pick(ADJECTIVES)} ${random.pick(CATEGORIES[category]!)}`, category, money(random.between(299, 49_999))]);
  }
  return rows;
}

function makeCustomers(random: Random, now: number): Value[][] {
  const rows: Value[][] = [];
  for (let id = 1; id <= SAMPLE_SHOP_ROWS.customers; id += 1) {
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const plainFirst = first
      .normalize('NFD')
      .replace(/[^A-Za-z]/g, '')
      .toLowerCase();
    const plainLast = last
      .normalize('NFD')
      .replace(/[^A-Za-z]/g, '')
      .toLowerCase();
    let email: string | null = `${plainFirst}.${plainLast}${id}@${random.pick(MAIL_DOMAINS)}`;
    const fault = random.next();
    if (fault < 0.02) email = null;
    else if (fault < 0.035 && rows.length > 0) email = rows[random.between(0, rows.length - 1)]![1] as string | null;
    else if (fault < 0.045) email = random.pick(MALFORMED_EMAILS);
    const stale = random.chance(0.03);
    const signedUp = now - (stale ? random.between(4 * 365, 7 * 365) * DAY : random.between(30, 3 * 365) * DAY) - random.between(0, DAY);
    let lastSeen: number | null = stale
      ? now - random.between(3 * 365, 4 * 365) * DAY
      : Math.max(signedUp, now - random.between(0, 60 * 24 * 60) * MINUTE);
    if (random.chance(0.01)) lastSeen = null;
    rows.push([id, email, `${first} ${last}`, random.pick(COUNTRIES), signedUp, lastSeen]);
  }
  return rows;
}

function makeOrders(random: Random, now: number): Value[][] {
  const rows: Value[][] = [];
  const count = SAMPLE_SHOP_ROWS.orders;
  for (let id = 1; id <= count; id += 1) {
    // Orphans: customers that do not exist.
    const customerId = random.chance(0.005)
      ? random.between(SAMPLE_SHOP_ROWS.customers + 1, SAMPLE_SHOP_ROWS.customers + 100)
      : random.between(1, SAMPLE_SHOP_ROWS.customers);
    const status = random.chance(0.01) ? random.pick(UNKNOWN_STATUSES) : random.pick(ORDER_STATUSES);
    const fault = random.next();
    let cents = random.between(500, 80_000);
    if (fault < 0.005) cents = -random.between(100, 50_000);
    else if (fault < 0.007) cents = random.between(100_000_000, 900_000_000);
    // About a year of orders, the newest a few minutes old.
    const orderedAt = now - (count - id) * 52 * MINUTE - random.between(1, 50) * MINUTE;
    rows.push([id, customerId, status, money(cents), random.pick(CURRENCIES), orderedAt]);
  }
  return rows;
}

function makeOrderItems(random: Random, products: Value[][]): Value[][] {
  const rows: Value[][] = [];
  for (let id = 1; id <= SAMPLE_SHOP_ROWS.order_items; id += 1) {
    const product = random.pick(products);
    const quantity = random.chance(0.003) ? 0 : random.between(1, 5);
    rows.push([id, random.between(1, SAMPLE_SHOP_ROWS.orders), product[0]!, quantity, product[4]!]);
  }
  return rows;
}

function makeShop(now: number): Shop {
  const random = seededRandom(20_240_501);
  const products = makeProducts(random);
  return {
    products,
    customers: makeCustomers(random, now),
    orders: makeOrders(random, now),
    order_items: makeOrderItems(random, products),
  };
}

function columnType(dialect: Dialect, column: ColumnDeclaration): string {
  const type = TYPES[column.type][dialect];
  return column.size ? `${type}(${column.size})` : type;
}

function createStatement(source: TableSource, table: SampleTable, tableName: string): string {
  const columns = table.columns.map(
    (column) => `${source.quote(column.name)} ${columnType(source.dialect, column)}${column.nullable ? '' : ' not null'}`,
  );
  return `create table if not exists ${tableName} (${columns.join(', ')}, primary key (${source.quote('id')}))`;
}

/** Timestamps as each dialect reads them: an instant for PostgreSQL, UTC wall time for MySQL's datetime. */
function valueFor(dialect: Dialect, type: ValueType, value: Value): Value {
  if (type !== 'timestamp' || value === null) return value;
  const iso = new Date(value).toISOString();
  return dialect === 'postgres' ? iso : iso.slice(0, 19).replace('T', ' ');
}

/**
 * The whole table in one statement, so it is written whole or not at all: on PostgreSQL one array
 * per column, unnested (no limit on the number of parameters); on MySQL one multi-row VALUES,
 * whose values mysql2 escapes into the statement.
 */
function insertStatement(source: TableSource, table: SampleTable, tableName: string, rows: Value[][]): { sql: string; params: unknown[] } {
  const names = table.columns.map((column) => source.quote(column.name)).join(', ');
  const into = `insert into ${tableName} (${names})`;
  if (source.dialect === 'postgres') {
    const arrays = table.columns.map((column, index) => rows.map((row) => valueFor('postgres', column.type, row[index] ?? null)));
    const unnested = table.columns.map((column, index) => `$${index + 1}::${TYPES[column.type].postgresArray}`).join(', ');
    return { sql: `${into} select * from unnest(${unnested})`, params: arrays };
  }
  const tuple = `(${table.columns.map(() => '?').join(', ')})`;
  return {
    sql: `${into} values ${rows.map(() => tuple).join(', ')}`,
    params: rows.flatMap((row) => table.columns.map((column, index) => valueFor('mysql', column.type, row[index] ?? null))),
  };
}

const WRITE_TIME_LIMIT_MS = 120_000;

export interface SampleShopOptions {
  /** The moment the shop's timestamps are counted back from; now by default. */
  now?: Date;
  /** The schema (a database on MySQL) to create the tables in; the connection's own by default. */
  schema?: string;
}

/** Creates and fills the sample shop's tables that are missing or empty; answers the tables it filled. */
export async function seedSampleShop(source: TableSource, options: SampleShopOptions = {}): Promise<{ seeded: string[] }> {
  const now = (options.now ?? new Date()).getTime();
  const nameOf = (table: SampleTable) => (options.schema ? source.tableName(`${options.schema}.${table.name}`) : source.quote(table.name));
  let shop: Shop | undefined;
  const seeded: string[] = [];
  for (const table of TABLES) {
    const tableName = nameOf(table);
    await source.query(createStatement(source, table, tableName), [], { timeoutMs: WRITE_TIME_LIMIT_MS });
    const [counted] = await source.query(`select count(*) as n from ${tableName}`, [], { timeoutMs: WRITE_TIME_LIMIT_MS });
    if (Number(counted?.n ?? 0) > 0) continue;
    shop ??= makeShop(now);
    const { sql, params } = insertStatement(source, table, tableName, shop[table.name]);
    await source.query(sql, params, { timeoutMs: WRITE_TIME_LIMIT_MS });
    // Statistics for the planner and the row estimates of the endpoints list (the embedded database has no autovacuum).
    if (source.dialect === 'postgres') await source.query(`analyze ${tableName}`, [], { timeoutMs: WRITE_TIME_LIMIT_MS });
    seeded.push(table.name);
  }
  return { seeded };
}
