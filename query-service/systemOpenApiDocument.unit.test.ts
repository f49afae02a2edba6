import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildSystemSchema } from './systemApi/graphql/systemSchema.ts';
import { PORTABILITY_ROUTES } from './portability/portabilityOpenApi.ts';
import { systemRestRoutes } from './systemApi/rest/systemRoutes.ts';
import { buildSystemOpenApiDocument } from './systemOpenApiDocument.ts';

type Operation = {
  operationId: string;
  tags: string[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { example?: string }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
const document = buildSystemOpenApiDocument(buildSystemSchema());
const paths = document.paths as Record<string, Record<string, Operation>>;
const schemas = (document.components as { schemas: Record<string, object> }).schemas;

describe('system OpenAPI document with the portability routes', () => {
  test('is a valid OpenAPI 3.1.0 document (independent validator)', async () => {
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    assert.equal(result.valid, true, JSON.stringify(result));
  });

  test('documents each portability route at the path its router serves, beside every route of the table', () => {
    const operations = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    const served = [...systemRestRoutes, ...Object.values(PORTABILITY_ROUTES)].map(
      (route) => `${route.method} ${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`,
    );
    assert.deepEqual(operations.sort(), served.sort());
    const ids = Object.values(paths).flatMap((methods) => Object.values(methods).map((operation) => operation.operationId));
    assert.equal(new Set(ids).size, ids.length);
    for (const route of Object.values(PORTABILITY_ROUTES)) {
      const operation = paths[route.path.replace(/:([A-Za-z]+)/g, '{$1}')]?.[route.method.toLowerCase()];
      assert.equal(operation?.operationId, route.operationId);
      assert.deepEqual(operation?.tags, ['Import and export']);
    }
    assert.ok((document.tags as { name: string }[]).some((tag) => tag.name === 'Import and export'));
  });

  test('imports take streamed files and answer the counts of portability.md §2-§3', () => {
    const importTable = paths['/revision/{revisionId}/table/{tableId}/import']?.post;
    assert.deepEqual(Object.keys(importTable?.requestBody?.content ?? {}), ['text/csv', 'application/x-ndjson']);
    assert.deepEqual(
      importTable?.parameters?.map((parameter) => parameter.name),
      ['revisionId', 'tableId', 'format', 'mode', 'onError', 'dryRun'],
    );
    const answer = { processed: 1, created: 1, updated: 0, unchanged: 0, removed: 0, invalid: 0, errors: [], dryRun: false };
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: { schemas } });
    const check = (name: string) => ajv.compile({ $ref: `doc#/components/schemas/${name}` });
    assert.equal(check('ImportResult')(answer), true);
    assert.equal(check('ImportResult')({ ...answer, processed: -1 }), false);
    const bundleAnswer = { ...answer, revisionId: 'r', tables: [], totalRowChanges: 0 };
    assert.equal(check('BundleImportResult')(bundleAnswer), true);
  });
});
