/** What every role factory (`createCommandService`, `createProjectionWorker`, `createQueryService`) returns. */
export interface RoleHandle {
  readonly name: 'command' | 'query' | 'projector';
  /** Starts background work (projection runners, timers). Resolves once the role is serving. */
  start(): Promise<void>;
  /** Stops background work, finishing in-flight batches; resolves when idle. */
  stop(): Promise<void>;
}
