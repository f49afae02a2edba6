import type { Db } from 'mongodb';
import type { ProjectionRef } from '../../../contracts/index.ts';
import { isSortIndexName } from './mongoViewIndex.ts';
import { indexesOf } from './mongoViewMeta.ts';
import type { MongoViewMeta } from './mongoViewMeta.ts';

/**
 * ViewStore.completeVersion on MongoDB: creates the declared indexes the version lacks (createIndexes skips those
 * that exist) and the sort indexes (ensureIndex) of the active version's collections, built from the filled data.
 */
export async function completeMongoVersion(db: Db, meta: MongoViewMeta, ref: ProjectionRef): Promise<void> {
  const spec = await meta.spec(ref.name, ref.version);
  const layouts = await meta.layouts(ref.name, ref.version, true);
  if (spec === null || layouts === null) throw new Error(`projection ${ref.name} v${ref.version} does not exist`);
  for (const collection of spec.collections) {
    const layout = layouts.get(collection.name);
    if (layout !== undefined) await db.collection(layout.name).createIndexes(indexesOf(layout, collection));
  }

  const active = await meta.activeVersion(ref.name);
  const from = active === null || active === ref.version ? null : await meta.layouts(ref.name, active);
  if (from === null) return;
  for (const [collection, layout] of layouts) {
    const source = from.get(collection);
    if (source === undefined) continue;
    const sorts = (await db.collection(source.name).indexes()).filter((index) => isSortIndexName(index.name));
    if (sorts.length === 0) continue;
    await db.collection(layout.name).createIndexes(sorts.map((index) => ({ key: index.key, name: index.name as string })));
  }
}
