import type { Logger } from 'pino';
import type { SystemStateSource, ViewStore } from '../../../contracts/index.ts';
import { createChangeQueries } from '../../changes/changeQueries.ts';
import { createCatalogReader } from '../../readers/catalogReader.ts';
import { createChangeReader } from '../../changes/changeReader.ts';
import { createDirectoryReader } from '../../readers/directoryReader.ts';
import { createRowIndexes } from '../../readers/rowIndexes.ts';
import { createRowReader } from '../../readers/rowReader.ts';
import { createSchemaReader } from '../../readers/schemaReader.ts';
import { createTableModels } from '../../readers/tableModels.ts';
import { createCatalogOperations } from './catalogOperations.ts';
import { createChangeOperations } from './changeOperations.ts';
import { createContentOperations } from './contentOperations.ts';
import { createDirectoryOperations } from './directoryOperations.ts';
import type { SystemOperations } from './operationTypes.ts';
import { createWebhookOperations } from './webhookOperations.ts';

export { resolveConnection } from '../../paging/lazyConnection.ts';
export type { LazyConnection } from '../../paging/lazyConnection.ts';
export type {
  BranchRef,
  OrganizationRef,
  PageArgs,
  ProjectRef,
  RequestContext,
  RevisionChangesArgs,
  RevisionRef,
  RowChangesArgs,
  RowRef,
  RowsArgs,
  SystemOperations,
  TableRef,
} from './operationTypes.ts';

export type SystemOperationsDeps = {
  readonly viewStore: ViewStore;
  /** The in-memory system state: every access check runs against it, never against the views. */
  readonly systemState: SystemStateSource;
  readonly log: Logger;
};

/**
 * The read operations of the system API shared by REST, GraphQL and MCP: auth.md §10 checks on the system state,
 * target resolution, key-scope filtering of collections, then reads of the views.
 */
export function createSystemOperations(deps: SystemOperationsDeps): SystemOperations {
  const indexes = createRowIndexes(deps.viewStore, deps.log);
  const operationDeps = {
    systemState: deps.systemState,
    directory: createDirectoryReader(deps.viewStore),
    catalog: createCatalogReader(deps.viewStore),
    schemas: createSchemaReader(deps.viewStore),
    rows: createRowReader(deps.viewStore, indexes),
    models: createTableModels(),
    log: deps.log.child({ component: 'systemOperations' }),
  };
  const changeQueries = createChangeQueries({
    schemas: operationDeps.schemas,
    changes: createChangeReader(deps.viewStore),
    catalog: operationDeps.catalog,
    models: operationDeps.models,
  });
  return {
    ...createDirectoryOperations(operationDeps),
    ...createCatalogOperations(operationDeps),
    ...createContentOperations(operationDeps),
    ...createChangeOperations({ ...operationDeps, changeQueries }),
    ...createWebhookOperations(deps),
  };
}
