import DataLoader from 'dataloader';
import type { GeneratedDataSource, GeneratedRow } from './generatedDataSource.ts';

/** Per-request row loaders: one DataLoader per table, so ids asked for in one execution step load together. */
export type RequestLoaders = {
  /** The row, or null when missing; batched with every other id of the same table in the same tick. */
  row(tableId: string, rowId: string): Promise<GeneratedRow | null>;
  /** Forgets loaded rows (after a write in the same request). */
  clearAll(): void;
};

export function createRequestLoaders<TRequest>(dataSource: GeneratedDataSource<TRequest>, request: TRequest): RequestLoaders {
  const loaders = new Map<string, DataLoader<string, GeneratedRow | null>>();
  const loaderOf = (tableId: string): DataLoader<string, GeneratedRow | null> => {
    let loader = loaders.get(tableId);
    if (loader === undefined) {
      loader = new DataLoader<string, GeneratedRow | null>((ids) => dataSource.loadRowsByIds(request, tableId, ids));
      loaders.set(tableId, loader);
    }
    return loader;
  };
  return {
    row: (tableId, rowId) => loaderOf(tableId).load(rowId),
    clearAll: () => {
      for (const loader of loaders.values()) loader.clearAll();
    },
  };
}
