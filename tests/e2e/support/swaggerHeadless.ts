// Swagger UI's own code (swagger-ui-dist, the bundle the product serves) running without a browser: it loads an
// OpenAPI document, resolves each operation, fills the values "Try it out" fills, validates like the Execute button
// and sends the request through its swagger-client. Only what lives in React components is restated here, line by
// line from swagger-ui 5.x (its sources are in swagger-ui-dist's source maps): ParameterRow's initial value
// (setDefaultValue and its enum rule) and the request body editor handing its sample to the state. Two shortcuts,
// neither of which changes what is sent: operations are resolved once for the whole document (the same resolver
// Swagger UI runs per expanded operation), and the page's cookies go through swagger-client's `userFetch`.
// tests/e2e/adminUiEndpointTools.ui.test.ts presses the same buttons in Chromium for a list and a row read.
import type { CookieJar } from './cookieJar.ts';

type Im = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- Immutable.js values of Swagger UI's state
type Ui = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the Swagger UI system (untyped bundle)

export type SwaggerOperation = { readonly path: string; readonly method: string; readonly operationId: string };

/** What "Try it out" → "Execute" did for one operation. */
export type SwaggerExecution = {
  /** Why Swagger UI refused to send (a required value it could not fill), or null when it sent the request. */
  readonly refused: string | null;
  /** The request as Swagger UI built it (url, method, headers, body). */
  readonly request: { readonly url: string; readonly method: string; readonly headers: Record<string, string>; readonly body?: unknown } | null;
  readonly status: number | null;
  readonly body: unknown;
};

/**
 * What the user types before "Execute": values of path parameters Swagger UI left empty (ids the server generated,
 * which no document can know), and an edit of the body Swagger UI filled in.
 */
export type UserInput = {
  readonly path?: Readonly<Record<string, string>>;
  readonly body?: (filled: unknown) => unknown;
  /** A file the user pastes in place of the filled body (an NDJSON upload: Swagger UI sends string examples of it JSON-quoted). */
  readonly file?: string;
};

export type HeadlessSwagger = {
  readonly operations: readonly SwaggerOperation[];
  /** "Try it out", the user's input, then "Execute" on one operation. */
  execute(operation: SwaggerOperation, input?: UserInput): Promise<SwaggerExecution>;
};

export type BrowserState = {
  /** A token entered in the "Authorize" dialog for bearerAuth. */
  readonly bearer?: string;
  /** The page's cookies: sent with every request and updated from every answer, as the browser does same-origin. */
  readonly jar?: CookieJar;
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The bundle swagger-ui-express serves to the docs pages (untyped: imported through a variable). */
const BUNDLE: string = 'swagger-ui-dist/swagger-ui-es-bundle.js';
let bundle: Promise<Ui> | null = null;

/** The bundle reads `window`, `location` and `document.baseURI` of the page it runs in: the docs page. */
function loadSwaggerUi(pageUrl: string): Promise<Ui> {
  const g = globalThis as Record<string, unknown>;
  g.window ??= globalThis;
  g.location = new URL(pageUrl);
  g.document = { baseURI: pageUrl };
  bundle ??= import(BUNDLE).then((module: { default: Ui }) => module.default);
  return bundle;
}

/** Swagger UI's `stringify` (core/utils). */
function stringify(thing: Im): string {
  if (typeof thing === 'string') return thing;
  const value = thing && typeof thing.toJS === 'function' ? thing.toJS() : thing;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value, null, 2);
  if (value === null || value === undefined) return '';
  return String(value);
}

/** The request's path for cookie matching. */
const pathOf = (url: string): string => new URL(url).pathname;

/**
 * Loads `document` (served from `pageUrl`'s origin, like the docs page) into a fresh Swagger UI system, in a
 * browser with `state`: a token entered through "Authorize" (bearerAuth) and/or its cookies.
 */
export async function openHeadlessSwagger(pageUrl: string, document: Record<string, unknown>, state: BrowserState): Promise<HeadlessSwagger> {
  const SwaggerUI = await loadSwaggerUi(pageUrl);
  const { jar } = state;
  const ui: Ui = SwaggerUI({
    spec: document,
    presets: [SwaggerUI.presets.apis],
    requestInterceptor: (request: { url: string; headers: Record<string, string>; userFetch?: typeof fetch }) => {
      if (jar === undefined) return request;
      // swagger-client sends through `userFetch` when a request has one: the browser's cookie handling. (Its answer
      // object keeps one Set-Cookie header of several, so the cookies are read from the fetch Response itself.)
      request.userFetch = async (url, init) => {
        const cookie = jar.header(pathOf(String(url)));
        const headers = new Headers(init?.headers);
        if (cookie !== undefined) headers.set('cookie', cookie);
        const response = await fetch(url, { ...init, headers });
        jar.store(response.headers, pathOf(String(url)));
        return response;
      };
      return request;
    },
  });
  const { specSelectors, specActions, oas3Selectors, oas3Actions, authActions, fn } = ui;
  const { List, Map, fromJS } = ui.Im;
  const schemes = (document.components as { securitySchemes: Record<string, unknown> }).securitySchemes;
  if (state.bearer !== undefined)
    authActions.authorize({ bearerAuth: { name: 'bearerAuth', schema: fromJS(schemes.bearerAuth), value: state.bearer } });

  const operations: SwaggerOperation[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>)) {
    // Swagger UI lists a path's operations in the order the path item names them.
    for (const [method, operation] of Object.entries(item))
      if (METHODS.includes(method)) operations.push({ path, method, operationId: operation.operationId });
  }

  /** ParameterRow.composeJsonSchema. */
  const composeJsonSchema = (schema: Im): Im => {
    const oneOf = schema.get('oneOf')?.get(0)?.toJS();
    const anyOf = schema.get('anyOf')?.get(0)?.toJS();
    return fromJS(fn.mergeJsonSchema(schema.toJS(), oneOf ?? anyOf ?? {}));
  };

  /** getParameterSchema (core/utils/get-parameter-schema.js), OpenAPI 3. */
  const parameterSchema = (parameter: Im): Im => {
    if (!Map.isMap(parameter)) return Map();
    if (parameter.get('content')) return parameter.getIn(['content', parameter.get('content').keySeq().first(), 'schema'], Map());
    return parameter.get('schema') ? parameter.get('schema', Map()) : Map();
  };

  /** ParameterRow.setDefaultValue (OpenAPI 3 branch) and the enum rule of UNSAFE_componentWillReceiveProps. */
  function fillParameter(pathMethod: readonly string[], rawParam: Im): void {
    const set = (value: Im): void => {
      const upstream = value === '' || (value && value.size === 0) ? null : value;
      specActions.changeParamByIdentity(pathMethod, rawParam, upstream, false);
    };
    const parseArray = (value: Im): Im => {
      if (List.isList(value)) return value;
      if (typeof value !== 'string') return null;
      try {
        const parsed = JSON.parse(value);
        return Array.isArray(parsed) ? List(parsed) : null;
      } catch {
        return null;
      }
    };
    const paramWithMeta = specSelectors.parameterWithMetaByIdentity(pathMethod, rawParam) || Map();
    if (paramWithMeta.get('examples'))
      throw new Error(`${rawParam.get('name')}: parameter examples are selected by a component this harness does not restate`);
    let schema = parameterSchema(paramWithMeta);
    const mediaType = paramWithMeta.get('content', Map()).keySeq().first();
    const generated = schema ? fn.getSampleSchema(schema.toJS(), mediaType, { includeWriteOnly: true }) : null;
    if (paramWithMeta.get('value') !== undefined || paramWithMeta.get('in') === 'body') return;
    schema = composeJsonSchema(schema);
    const pick = (...candidates: Im[]): Im => candidates.find((candidate) => candidate !== undefined);
    let initial = pick(
      paramWithMeta.getIn(['content', mediaType, 'example']),
      paramWithMeta.get('example'),
      schema?.get('example'),
      schema?.get('default'),
      paramWithMeta.get('default'),
    );
    if (initial !== undefined && !List.isList(initial)) initial = stringify(initial);
    const objectType = fn.getSchemaObjectType(schema);
    const itemsType = fn.getSchemaObjectType(schema?.get('items'));
    const multipleTypes = List.isList(schema?.get('type'));
    if (objectType === 'array' && !multipleTypes && initial !== undefined) return set(parseArray(initial));
    if (initial !== undefined) return set(initial);
    if (objectType === 'object' && generated) return set(List.isList(generated) ? generated : stringify(generated));
    if (objectType === 'array' && itemsType === 'object' && generated) return set(parseArray(generated));
    const enumValues = schema?.get('enum');
    if (rawParam.get('required') && enumValues && enumValues.size) set(String(enumValues.first()));
  }

  // Swagger UI resolves an operation when it is expanded (swagger-client's resolveSubtree: the resolver limited to
  // that path, run on the whole document each time). The same resolver run once on the whole document gives the same
  // operations at a fraction of the cost.
  const whole = await fn.resolve({ spec: document, baseDoc: pageUrl, allowMetaPatches: false });
  if (Array.isArray(whole.errors) && whole.errors.length > 0) throw new Error(whole.errors.map((e: Error) => e.message).join('; '));
  function resolved(path: string, method: string): Im {
    const subtree = ['paths', path, method];
    specActions.updateResolvedSubtree(subtree, fromJS(whole.spec.paths[path][method]));
    return specSelectors.specResolvedSubtree(subtree);
  }

  return {
    operations,
    async execute({ path, method }, input = {}) {
      const pathMethod = [path, method];
      const operation = resolved(path, method);
      for (const param of operation.get('parameters', List())) {
        fillParameter(pathMethod, param);
        const typed = param.get('in') === 'path' ? input.path?.[param.get('name')] : undefined;
        if (typed === undefined) continue;
        const filled = specSelectors.parameterWithMetaByIdentity(pathMethod, param)?.get('value');
        if (filled !== undefined && filled !== null)
          throw new Error(`${method} ${path}: Swagger UI filled ${param.get('name')} (${filled}); the user would not type it`);
        specActions.changeParamByIdentity(pathMethod, param, typed, false);
      }
      const content = operation.getIn(['requestBody', 'content']);
      if (content) {
        oas3Actions.setRequestContentType({ value: content.keySeq().first(), pathMethod });
        // RequestBodyEditor shows the sample and hands it to the state as the body value.
        const filled: string = oas3Selectors.selectDefaultRequestBodyValue(path, method);
        const body = input.file ?? (input.body === undefined ? filled : JSON.stringify(input.body(JSON.parse(filled)), null, 2));
        oas3Actions.setRequestBodyValue({ value: body, pathMethod });
      }
      // The Execute button: parameters, then the body; a failure sends nothing.
      specActions.validateParams(pathMethod);
      const parameterErrors = specSelectors.validationErrors(pathMethod);
      if (!specSelectors.validateBeforeExecute(pathMethod))
        return { refused: JSON.stringify(parameterErrors), request: null, status: null, body: null };
      if (!oas3Selectors.validateBeforeExecute(pathMethod))
        return { refused: 'the request body is required and empty', request: null, status: null, body: null };
      const required = specSelectors.getOAS3RequiredRequestBodyContentType(pathMethod);
      if (required) {
        const missing = oas3Selectors.validateShallowRequired({
          oas3RequiredRequestBodyContentType: required,
          oas3RequestContentType: oas3Selectors.requestContentType(path, method),
          oas3RequestBodyValue: oas3Selectors.requestBodyValue(path, method),
        });
        if (missing && missing.length > 0) return { refused: `missing body keys ${missing.join(', ')}`, request: null, status: null, body: null };
      }
      let response: Im;
      for (let attempt = 1; ; attempt++) {
        await specActions.execute({ operation, path, method });
        response = specSelectors.responseFor(path, method)?.toJS();
        // A kept-alive connection the server closed while it was idle fails before any answer; a browser sends the
        // request again on a new connection, once.
        if (attempt === 2 || response?.error !== true || response.message !== 'fetch failed') break;
      }
      const request = specSelectors.requestFor(path, method)?.toJS() ?? null;
      // Error statuses come back as `{error: true, statusCode, ...the response}`; without a status nothing answered.
      const status = response?.status ?? response?.statusCode;
      if (typeof status !== 'number') throw new Error(`${method} ${path}: no answer: ${JSON.stringify(response)}`);
      return { refused: null, request, status, body: response.body ?? response.text };
    },
  };
}
