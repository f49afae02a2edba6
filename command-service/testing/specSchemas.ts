import { SYSTEM_REFS } from '../../contracts/index.ts';
import type { BranchCommandBody } from '../branches/branchCommand.ts';

/** Schemas, schema builders and command builders shared by the branch decider and table specs. */

export type Json = Record<string, unknown>;

export const str = (d = ''): Json => ({ type: 'string', default: d });
export const num = (d = 0): Json => ({ type: 'number', default: d });
export const bool = (d = false): Json => ({ type: 'boolean', default: d });
export const arr = (items: Json): Json => ({ type: 'array', items });
export const obj = (properties: Json): Json => ({ type: 'object', additionalProperties: false, required: Object.keys(properties), properties });

export const usersSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string', default: '' } },
};

export const postsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'views', 'author', 'reviewers', 'id'],
  properties: {
    title: { type: 'string', default: '' },
    views: { type: 'number', default: 0 },
    author: { type: 'string', default: '', foreignKey: 'users' },
    reviewers: { type: 'array', items: { type: 'string', default: '', foreignKey: 'users' } },
    id: { $ref: SYSTEM_REFS.rowId },
  },
};

export type PostData = { title?: string; views?: number; author: string; reviewers?: string[]; id?: unknown };

export function post(data: PostData): Record<string, unknown> {
  return { title: data.title ?? 't', views: data.views ?? 0, author: data.author, reviewers: data.reviewers ?? [], id: data.id ?? '' };
}

export const createTable = (tableId: string, schema: unknown): BranchCommandBody => ({
  type: 'CreateTable',
  data: { tableId, schema },
});

export const createRows = (tableId: string, rows: { rowId: string; data: unknown }[], bulk = true): BranchCommandBody => ({
  type: 'CreateRows',
  data: { tableId, rows, bulk },
});

export const updateRows = (tableId: string, rows: { rowId: string; data: unknown }[], bulk = true): BranchCommandBody => ({
  type: 'UpdateRows',
  data: { tableId, rows, bulk },
});

export const deleteRows = (tableId: string, rowIds: string[], bulk = true): BranchCommandBody => ({
  type: 'DeleteRows',
  data: { tableId, rowIds, bulk },
});

export const commit = (comment = ''): BranchCommandBody => ({ type: 'CreateRevision', data: { comment } });

export const users = (...names: string[]): { rowId: string; data: unknown }[] => names.map((name) => ({ rowId: name, data: { name } }));
