import type { JsonObject } from '../../contracts/index.ts';
import type { GeneratedDataSource, GeneratedListArgs, GeneratedRow } from '../generatedApi/graphql/generatedDataSource.ts';

/** Test double of GeneratedDataSource: rows in memory, every call recorded. */
export type FakeRequest = { readonly user: string };

export type FakeCall = { readonly method: string; readonly tableId: string; readonly args: unknown };

export type FakeDataSource = GeneratedDataSource<FakeRequest> & {
  readonly calls: FakeCall[];
  callsOf(method: string): FakeCall[];
};

const TIME = '2025-03-01T09:30:00.000Z';

export function fakeRow(id: string, data: JsonObject): GeneratedRow {
  return { id, createdAt: TIME, updatedAt: TIME, readonly: false, data };
}

export function createFakeDataSource(rows: Readonly<Record<string, readonly GeneratedRow[]>>): FakeDataSource {
  const calls: FakeCall[] = [];
  const record = (method: string, tableId: string, args: unknown) => calls.push({ method, tableId, args });
  const find = (tableId: string, id: string) => rows[tableId]?.find((row) => row.id === id) ?? null;
  /** A bulk write: recorded, answered with the number of rows it names. */
  const bulk = (method: string) => async (_request: FakeRequest, tableId: string, input: readonly unknown[]) => {
    record(method, tableId, input);
    return { success: true as const, count: input.length };
  };
  return {
    calls,
    callsOf: (method) => calls.filter((call) => call.method === method),
    async getRow(_request, tableId, rowId) {
      record('getRow', tableId, rowId);
      return find(tableId, rowId);
    },
    async listRows(_request, tableId, args: GeneratedListArgs, wantTotalCount) {
      record('listRows', tableId, { args, wantTotalCount });
      const all = rows[tableId] ?? [];
      const page = all.slice(0, args.first ?? 100);
      return {
        edges: page.map((node) => ({ cursor: `c-${node.id}`, node })),
        pageInfo: { hasNextPage: page.length < all.length, hasPreviousPage: false, startCursor: null, endCursor: null },
        ...(wantTotalCount ? { totalCount: all.length } : {}),
      };
    },
    async loadRowsByIds(_request, tableId, ids) {
      record('loadRowsByIds', tableId, [...ids]);
      return ids.map((id) => find(tableId, id));
    },
    async createRow(_request, tableId, input) {
      record('createRow', tableId, input);
      return fakeRow(input.id, input.data as JsonObject);
    },
    async updateRow(_request, tableId, input) {
      record('updateRow', tableId, input);
      return fakeRow(input.id, input.data as JsonObject);
    },
    async patchRow(_request, tableId, input) {
      record('patchRow', tableId, input);
      return fakeRow(input.id, find(tableId, input.id)?.data ?? {});
    },
    async deleteRow(_request, tableId, rowId) {
      record('deleteRow', tableId, rowId);
      return { id: rowId, success: true };
    },
    createRows: bulk('createRows'),
    updateRows: bulk('updateRows'),
    patchRows: bulk('patchRows'),
    deleteRows: bulk('deleteRows'),
    async changesSince(_request, args) {
      record('changesSince', '', args);
      return { edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null }, totalCount: 0 };
    },
    async tableChangesSince(_request, since) {
      record('tableChangesSince', '', since);
      return [];
    },
  };
}
