import DataLoader from 'dataloader';
import type { GeneratedDataSource, GeneratedRow } from './generatedDataSource.ts';

/** Per-request row loaders: one DataLoader per table, so ids asked for in one execution step load together. */
export type RequestLoaders = {
  /** The row, or null when missing; batched with every other id of the same table in the same tick. */
  row(tableId: string, rowId: string): Promise<GeneratedRow | null>;
  /** Forgets loaded rows (after a write in the same request). */
  clearAll(): void;
};

/**
 * A class rather than an object of closures: it is made per request, and named closures made per request are
 * dictionary-mode functions under tsx (README, "Hot paths").
 */
class Loaders<TRequest> implements RequestLoaders {
  private readonly loaders = new Map<string, DataLoader<string, GeneratedRow | null>>();
  private readonly dataSource: GeneratedDataSource<TRequest>;
  private readonly request: TRequest;

  constructor(dataSource: GeneratedDataSource<TRequest>, request: TRequest) {
    this.dataSource = dataSource;
    this.request = request;
  }

  row(tableId: string, rowId: string): Promise<GeneratedRow | null> {
    let loader = this.loaders.get(tableId);
    if (loader === undefined) {
      loader = new DataLoader<string, GeneratedRow | null>((ids) => this.dataSource.loadRowsByIds(this.request, tableId, ids));
      this.loaders.set(tableId, loader);
    }
    return loader.load(rowId);
  }

  clearAll(): void {
    for (const loader of this.loaders.values()) loader.clearAll();
  }
}

export function createRequestLoaders<TRequest>(dataSource: GeneratedDataSource<TRequest>, request: TRequest): RequestLoaders {
  return new Loaders(dataSource, request);
}
