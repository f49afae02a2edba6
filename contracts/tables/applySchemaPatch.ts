import { parseJsonPointer } from './jsonPointer.ts';
import type { JsonObject } from '../events/domainEvents.ts';
import type { TableSchema } from './tableSchema.ts';
import type { LossListener } from './convertValue.ts';
import { addAt, getAt, removeAt, replaceAt, setOwn } from './jsonPatchValue.ts';
import { addDefaultStep, convertStep, removeStep, transferStep, type MigrationStep } from './migrationSteps.ts';
import { assertPatchList, invalidPatch, readPatchOperation, type PatchOperation } from './patchOperations.ts';
import { isObjectNode, locateInSchema, splitArrayContext, type NodeLocation, type SchemaLocation } from './schemaLocation.ts';

export type SchemaPatchResult = {
  /** The patched schema. Not validated yet: the caller runs assertValidTableSchema on it. */
  readonly schema: TableSchema;
  /** False when every operation only changed keywords: rows stay as they are. */
  readonly changesData: boolean;
  /**
   * Migrates one row's data through every operation in order; returns a new value (the input is not changed).
   * `onLoss` hears of every value a conversion could not keep (domain.md §6 rule 6), with its path in the data.
   */
  migrate(data: unknown, onLoss?: LossListener): unknown;
};

type Json = Record<string, unknown>;

const SCHEMA_PATCH_OPS = ['add', 'remove', 'replace', 'move', 'copy'];

function locate(schema: Json, pointer: string, index: number): SchemaLocation {
  const tokens = parseJsonPointer(pointer);
  if (tokens === null) throw invalidPatch(index, pointer, `Invalid JSON Pointer: ${pointer}`);
  const location = locateInSchema(schema, tokens);
  if (location === null) throw invalidPatch(index, pointer, `Path not found: ${pointer}`);
  if (location.kind === 'node') {
    if (location.via === 'root') throw invalidPatch(index, pointer, 'The root node cannot be patched');
    return location;
  }
  const { keyword } = location;
  if (keyword === 'required') throw invalidPatch(index, pointer, '"required" is maintained automatically and cannot be patched');
  if (keyword === 'additionalProperties') throw invalidPatch(index, pointer, '"additionalProperties" cannot be patched');
  if (location.isRoot && keyword === 'type') throw invalidPatch(index, pointer, 'The root type cannot be patched');
  if (keyword === 'properties' && isObjectNode(location.node)) {
    throw invalidPatch(index, pointer, 'Properties are patched through their node paths (/properties/<name>)');
  }
  return location;
}

function addRequired(objectNode: Json | null, name: string): void {
  if (objectNode !== null && Array.isArray(objectNode.required) && !objectNode.required.includes(name)) {
    objectNode.required.push(name);
  }
}

function removeRequired(objectNode: Json | null, name: string): void {
  if (objectNode !== null && Array.isArray(objectNode.required)) {
    objectNode.required = objectNode.required.filter((entry: unknown) => entry !== name);
  }
}

function propertiesOf(location: NodeLocation): Json {
  return (location.parent as Json).properties as Json;
}

/** Puts `node` at an existing node path (replace semantics) and converts the data there. */
function replaceNode(location: NodeLocation, node: unknown, steps: MigrationStep[]): void {
  const replaced = structuredClone(location.node);
  if (location.via === 'items') (location.parent as Json).items = structuredClone(node);
  else setOwn(propertiesOf(location), location.name, structuredClone(node));
  steps.push(convertStep(location.dataPath, structuredClone(node), replaced));
}

function keywordFailure(index: number, pointer: string, failure: string | null): void {
  if (failure !== null) throw invalidPatch(index, pointer, `${failure}: ${pointer}`);
}

function applyKeywordOperation(schema: Json, op: PatchOperation, target: SchemaLocation & { kind: 'keyword' }, index: number): void {
  switch (op.op) {
    case 'add':
      return keywordFailure(index, op.path, addAt(target.node, target.tokens, structuredClone(op.value)));
    case 'remove':
      return keywordFailure(index, op.path, removeAt(target.node, target.tokens));
    case 'replace':
      return keywordFailure(index, op.path, replaceAt(target.node, target.tokens, structuredClone(op.value)));
  }
  const fromPointer = op.from as string;
  const from = locate(schema, fromPointer, index);
  if (from.kind !== 'keyword') throw invalidPatch(index, op.path, 'from and path must both be node paths or both keyword paths');
  const found = getAt(from.node, from.tokens);
  if (!found.found) throw invalidPatch(index, fromPointer, `Path not found: ${fromPointer}`);
  if (op.op === 'move') {
    if (fromPointer === op.path) return;
    if (op.path.startsWith(`${fromPointer}/`)) throw invalidPatch(index, op.path, 'A value cannot be moved into itself');
    keywordFailure(index, fromPointer, removeAt(from.node, from.tokens));
  }
  const again = locate(schema, op.path, index);
  if (again.kind !== 'keyword') throw invalidPatch(index, op.path, `Path not found: ${op.path}`);
  const value = op.op === 'move' ? found.value : structuredClone(found.value);
  keywordFailure(index, op.path, addAt(again.node, again.tokens, value));
}

function transferNode(schema: Json, op: PatchOperation, target: NodeLocation, index: number, steps: MigrationStep[]): void {
  const fromPointer = op.from as string;
  const from = locate(schema, fromPointer, index);
  if (from.kind !== 'node') throw invalidPatch(index, op.path, 'from and path must both be node paths or both keyword paths');
  if (from.node === undefined) throw invalidPatch(index, fromPointer, `Path not found: ${fromPointer}`);
  if (from.via !== 'property' || target.via !== 'property') {
    throw invalidPatch(index, op.path, 'Only properties can be moved or copied (not array items)');
  }
  const fromContext = splitArrayContext(from.dataPath).context;
  if (fromContext.join('/') !== splitArrayContext(target.dataPath).context.join('/')) {
    throw invalidPatch(index, op.path, 'from and path must be inside the same array items');
  }
  if (fromPointer === op.path) return;
  if (op.op === 'move' && op.path.startsWith(`${fromPointer}/`)) {
    throw invalidPatch(index, op.path, 'A node cannot be moved into itself');
  }
  const node = from.node;
  if (op.op === 'move') {
    delete propertiesOf(from)[from.name];
    removeRequired(from.parent, from.name);
  }
  const destination = locate(schema, op.path, index) as NodeLocation;
  setOwn(propertiesOf(destination), destination.name, op.op === 'move' ? node : structuredClone(node));
  addRequired(destination.parent, destination.name);
  steps.push(transferStep(from.dataPath, destination.dataPath, op.op === 'move' ? 'move' : 'copy'));
}

function applyOperation(schema: Json, op: PatchOperation, index: number, steps: MigrationStep[]): void {
  const target = locate(schema, op.path, index);
  if (target.kind === 'keyword') return applyKeywordOperation(schema, op, target, index);
  switch (op.op) {
    case 'add':
      if (target.node !== undefined) return replaceNode(target, op.value, steps);
      setOwn(propertiesOf(target), target.name, structuredClone(op.value));
      addRequired(target.parent, target.name);
      steps.push(addDefaultStep(target.dataPath, structuredClone(op.value)));
      return;
    case 'replace':
      if (target.node === undefined) throw invalidPatch(index, op.path, `Path not found: ${op.path}`);
      return replaceNode(target, op.value, steps);
    case 'remove':
      if (target.node === undefined) throw invalidPatch(index, op.path, `Path not found: ${op.path}`);
      if (target.via === 'items') throw invalidPatch(index, op.path, 'Array items cannot be removed; replace the array node instead');
      delete propertiesOf(target)[target.name];
      removeRequired(target.parent, target.name);
      steps.push(removeStep(target.dataPath));
      return;
    default:
      return transferNode(schema, op, target, index, steps);
  }
}

/**
 * Applies a JSON Patch to a table schema (domain.md §6): each operation changes the schema and records its effect
 * on row data; `migrate` replays those effects on one row. Throws BAD_USER_INPUT (not 1 to 1000 operations) or
 * INVALID_PATCH `{index, path, message}`. The caller validates the resulting schema and the migrated rows.
 */
export function applySchemaPatch(schema: TableSchema | JsonObject, patches: unknown): SchemaPatchResult {
  assertPatchList(patches);
  const working = structuredClone(schema) as Json;
  const steps: MigrationStep[] = [];
  patches.forEach((raw, index) => applyOperation(working, readPatchOperation(raw, index, SCHEMA_PATCH_OPS), index, steps));
  return {
    schema: working as TableSchema,
    changesData: steps.length > 0,
    migrate(data, onLoss) {
      const out = structuredClone(data);
      for (const step of steps) step(out, onLoss);
      return out;
    },
  };
}
