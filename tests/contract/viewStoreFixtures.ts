import { sqlitePosition } from '../../contracts/index.ts';
import type { CollectionSpec, Filter, FindQuery, ProjectionRef, ProjectionSpec, SortKey, ViewDoc, ViewStore } from '../../contracts/index.ts';

/** What a contract suite needs from an adapter: a fresh, empty store and a way to dispose of it. */
export type OpenViewStore = () => Promise<{ store: ViewStore; cleanup(): Promise<void> }>;

/**
 * Per-adapter options of the contract suites. `skip` maps test names to the reason a partial stand-in cannot pass
 * them; the reason is printed with the skipped test. A name that matches no test fails the suite.
 */
export type ContractOptions = { readonly skip?: Readonly<Record<string, string>> };

/** node:test options for each test name, and a check (run after the suite is declared) for unknown skip names. */
export function createSkipper(options: ContractOptions = {}) {
  const skip = options.skip ?? {};
  const seen = new Set<string>();
  return {
    optionsFor(title: string): { skip?: string } {
      seen.add(title);
      return Object.hasOwn(skip, title) ? { skip: skip[title] as string } : {};
    },
    assertAllUsed(): void {
      const unknown = Object.keys(skip).filter((title) => !seen.has(title));
      if (unknown.length > 0) throw new Error(`skip lists tests that do not exist: ${unknown.join(', ')}`);
    },
  };
}

/** A `-` in the name checks that adapters map projection names to storage names safely. */
export const PROJECTION = 'contract-view';

export const items: CollectionSpec = {
  name: 'items',
  fields: { id: 'text', title: 'text', n: 'integer', score: 'real', flag: 'boolean', data: 'json' },
  key: ['id'],
  indexes: [{ fields: ['n'] }, { fields: ['flag', 'n'] }],
};

export const pairs: CollectionSpec = {
  name: 'pairs',
  fields: { branch: 'text', row: 'text', rev: 'integer', body: 'json' },
  key: ['branch', 'row'],
  indexes: [{ fields: ['rev'] }],
};

export const users: CollectionSpec = {
  name: 'users',
  fields: { id: 'text', email: 'text' },
  key: ['id'],
  indexes: [{ fields: ['email'], unique: true }],
};

export function projectionSpec(version = 1): ProjectionSpec {
  return { name: PROJECTION, version, collections: [items, pairs, users] };
}

export function ref(version = 1): ProjectionRef {
  return { name: PROJECTION, version };
}

export const pos = (n: number): string => sqlitePosition(n);

/**
 * Five documents covering typed columns, nulls and json values of every kind. Notes used by the assertions:
 * b.data.num is the string '10' (a.data.num the number 10); b.data.b is the string 'true'; a.data.t and
 * b.data.t are the same instant; e.data.t is 30 minutes later; c.data.t is not a date; d has no json at all;
 * e.data.tags is a string, not an array.
 */
export const sampleDocs: readonly ViewDoc[] = [
  {
    id: 'a',
    title: 'apple',
    n: 1,
    score: 1.5,
    flag: true,
    data: {
      s: 'x',
      num: 10,
      b: true,
      arr: [1, { k: 'v' }],
      'a.b': 1,
      "it's": 'q',
      nested: { deep: { v: 5 } },
      t: '2025-01-01T00:00:00Z',
      ns: '3.7',
      tags: ['news', 'Tech'],
      items: [
        { price: 5, name: 'Pen' },
        { price: 20, name: 'Book' },
      ],
    },
  },
  {
    id: 'b',
    title: 'banana',
    n: 2,
    score: 2.5,
    flag: false,
    data: {
      s: 'y',
      num: '10',
      b: 'true',
      arr: [2],
      ns: '12',
      t: '2025-01-01T01:00:00+01:00',
      tags: ['news'],
      items: [{ price: 1 }],
    },
  },
  {
    id: 'c',
    title: 'cherry',
    n: 3,
    score: null,
    flag: null,
    data: { s: 5, num: 2, b: false, arr: [], nested: { deep: { v: 7 } }, t: 'not a date', ns: 'abc', tags: [], items: [] },
  },
  { id: 'd', title: null, n: null, score: -1, flag: true, data: null },
  {
    id: 'e',
    title: 'Éclair',
    n: 10,
    score: 0,
    flag: false,
    data: {
      s: null,
      num: 2.5,
      arr: [3, { k: 'w' }],
      t: '2024-12-31T23:30:00.000-01:00',
      tags: 'news',
      items: [{ price: 50, tags: ['x', 'y'] }, { price: 'cheap' }],
    },
  },
];

export async function seed(store: ViewStore, docs: readonly ViewDoc[] = sampleDocs): Promise<void> {
  await store.ensureProjection(projectionSpec());
  const ok = await store.applyBatch(
    ref(),
    null,
    pos(1),
    docs.map((doc) => ({ op: 'upsert', collection: 'items', doc })),
  );
  if (!ok) throw new Error('seed batch was refused');
}

const byId: SortKey = { ref: { field: 'id' }, direction: 'asc' };

/** Ids of the matching items, sorted by id (filters are checked as sets). */
export async function idsWhere(store: ViewStore, filter: Filter): Promise<string[]> {
  const docs = await store.find(PROJECTION, 'items', { filter, orderBy: [byId] });
  return docs.map((d) => d.id as string);
}

/** Ids in the order of `orderBy`, with id asc as the final tiebreaker. */
export async function idsSorted(store: ViewStore, orderBy: readonly SortKey[], query: FindQuery = {}): Promise<string[]> {
  const docs = await store.find(PROJECTION, 'items', { ...query, orderBy: [...orderBy, byId] });
  return docs.map((d) => d.id as string);
}

export async function withStore(open: OpenViewStore, fn: (store: ViewStore) => Promise<void>): Promise<void> {
  const { store, cleanup } = await open();
  try {
    await fn(store);
  } finally {
    await cleanup();
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
