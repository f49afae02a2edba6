import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildSystemSchema } from '../graphql/systemSchema.ts';
import { securitySchemes } from '../../http/openApi.ts';
import { buildSystemOpenApi } from './openapi.ts';
import { systemRestRoutes } from './systemRoutes.ts';

const document = buildSystemOpenApi(buildSystemSchema(), systemRestRoutes);
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; required: boolean; content?: unknown }[];
  requestBody?: { content: { 'application/json': { schema: { properties: Record<string, unknown>; required: string[] } } } };
  responses: Record<string, { content?: { 'application/json': { schema: unknown } }; $ref?: string }>;
  security?: unknown[];
};
const paths = document.paths as Record<string, Record<string, Operation>>;
const op = (path: string, method: string): Operation => {
  const found = paths[path]?.[method];
  assert.ok(found, `${method} ${path}`);
  return found;
};

describe('system OpenAPI document', () => {
  test('is a valid OpenAPI 3.1.0 document (independent validator)', async () => {
    assert.equal(document.openapi, '3.1.0');
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    assert.equal(result.valid, true, JSON.stringify(result));
  });

  test('lists every served route once with a unique operationId', () => {
    const operations = Object.entries(paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`));
    const expected = systemRestRoutes.map((r) => `${r.method} ${r.path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
    assert.deepEqual(operations.sort(), expected.sort());
    const ids = Object.values(paths).flatMap((methods) => Object.values(methods).map((o) => o.operationId));
    assert.equal(new Set(ids).size, ids.length);
  });

  test('has the four security schemes, the Error schemas and public login', () => {
    const components = document.components as { securitySchemes: unknown; schemas: Record<string, unknown> };
    assert.deepEqual(components.securitySchemes, securitySchemes);
    assert.deepEqual(Object.keys(securitySchemes), ['bearerAuth', 'apiKeyHeader', 'apiKeyQuery', 'cookieAuth']);
    assert.ok(components.schemas.Error && components.schemas.ErrorDetail);
    assert.deepEqual(op('/auth/login', 'post').security, []);
    assert.equal(document.security && (document.security as unknown[]).length, 4);
  });

  test('bodies are the GraphQL inputs without path ids; queries carry JSON-encoded where/orderBy', () => {
    const createRow = op('/revision/{revisionId}/table/{tableId}/rows', 'post');
    const body = createRow.requestBody?.content['application/json'].schema;
    assert.deepEqual(Object.keys(body?.properties ?? {}), ['rowId', 'data']);
    assert.deepEqual(body?.required, ['rowId', 'data']);
    assert.deepEqual(
      createRow.parameters?.map((p) => p.name),
      ['revisionId', 'tableId'],
    );
    assert.ok(createRow.responses['201'] && createRow.responses['409']);
    const rows = op('/revision/{revisionId}/table/{tableId}/rows', 'get');
    const where = rows.parameters?.find((p) => p.name === 'where');
    assert.ok(where?.content, 'where is described with content: application/json');
    assert.deepEqual(
      rows.parameters?.map((p) => p.in),
      ['path', 'path', 'query', 'query', 'query', 'query'],
    );
    assert.equal(op('/user/{userId}/deactivate', 'post').requestBody, undefined);
    assert.deepEqual(op('/organization/{organizationId}/project/{projectName}', 'delete').responses['200']?.content?.['application/json'].schema, {
      $ref: '#/components/schemas/SuccessResult',
    });
  });

  test('response schemas are the REST shapes (nested GraphQL fields left out)', () => {
    const schemas = (document.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas;
    assert.deepEqual(Object.keys(schemas.Branch?.properties ?? {}), [
      'id',
      'projectId',
      'name',
      'isRoot',
      'createdAt',
      'headRevisionId',
      'draftRevisionId',
      'startRevisionId',
      'parent',
      'touched',
    ]);
    assert.deepEqual(Object.keys(schemas.Table?.properties ?? {}), ['id', 'readonly', 'schema', 'count', 'createdAt', 'updatedAt']);
    assert.deepEqual(Object.keys(schemas.Organization?.properties ?? {}), ['id', 'isPersonal', 'createdAt']);
  });

  test('Swagger UI fills every body and every parameter it would fill with an example valid for its schema', () => {
    type Schema = { $ref?: string; type?: unknown; items?: Schema; anyOf?: Schema[] };
    const components = (document.components as { schemas: Record<string, Schema> }).schemas;
    const deref = (schema: Schema | undefined): Schema | undefined => (schema?.$ref ? components[schema.$ref.split('/').pop() ?? ''] : schema);
    const isObject = (schema: Schema | undefined): boolean => {
      const target = deref(schema);
      return target?.type === 'object' || (target?.anyOf ?? []).some(isObject);
    };
    /** ParameterRow's rule: an object, or an array of objects, gets a sample of its schema when it has no example. */
    const fillsWithSample = (media: { schema?: Schema } | undefined): boolean => {
      const schema = deref(media?.schema);
      return isObject(schema) || (schema?.type === 'array' && isObject(schema.items));
    };
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ ...document, $id: 'https://strata.test/api/openapi.json' } as object);
    const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
    const check = (pointer: string, value: unknown, where: string) => {
      const validate = ajv.compile({ $ref: `https://strata.test/api/openapi.json#${pointer}` });
      assert.equal(validate(value), true, `${where}: ${JSON.stringify(validate.errors)}`);
    };
    // Ids the server generates: no document can know one, so Swagger UI leaves them for the user to enter.
    const generated = new Set(['revisionId', 'userId', 'endpointId', 'id', 'webhookId', 'deliveryId']);
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const at = `/paths/${escape(path)}/${method}`;
        const where = `${method.toUpperCase()} ${path}`;
        const body = operation.requestBody?.content['application/json'] as { example?: unknown } | undefined;
        if (body !== undefined) {
          assert.ok(body.example !== undefined, `${where}: a body example`);
          check(`${at}/requestBody/content/application~1json/schema`, body.example, `${where} body`);
        }
        (operation.parameters ?? []).forEach((parameter, i) => {
          const { content } = parameter as { content?: { 'application/json': { example?: unknown } } };
          const example = content === undefined ? (parameter as { example?: unknown }).example : content['application/json'].example;
          if (example === undefined) {
            // Without an example Swagger UI sends nothing for an optional scalar, asks for a required one, and fills
            // an object with a sample of its schema.
            assert.ok(!parameter.required || (parameter.in === 'path' && generated.has(parameter.name)), `${where} ${parameter.name}: an example`);
            assert.ok(
              !fillsWithSample(content?.['application/json'] as { schema?: Schema } | undefined),
              `${where} ${parameter.name}: an object needs an example`,
            );
            return;
          }
          const schemaAt = content === undefined ? `${at}/parameters/${i}/schema` : `${at}/parameters/${i}/content/application~1json/schema`;
          check(schemaAt, example, `${where} ${parameter.name}`);
        });
      }
    }
  });
});
