import type { Principal } from '../auth/principal.ts';
import type { CommandInput, CommandResult, CommandType } from '../commands/commands.ts';
import type { Position } from '../events/position.ts';

export type CommandContext = {
  readonly principal: Principal;
  /** Request id; becomes the correlation id of the appended events. */
  readonly correlationId: string;
};

export type CommandOutcome<TResult> = {
  readonly result: TResult;
  /**
   * Position of the last appended event; for a no-op write (nothing appended) the log head at decision time, so
   * reads at this position see the state the result describes.
   */
  readonly position: Position | null;
  /** Projections that must reach `position` before the write is visible (WRITE_CONSISTENCY=projected). */
  readonly projections: readonly string[];
};

/** The write side as the edges (REST, GraphQL, MCP) see it: authorize, validate, decide, append. */
export interface CommandGateway {
  /**
   * Executes one command for `context.principal`: permission and key-scope checks, validation against consistent
   * state, optimistic-concurrency append (retried on conflict). Throws AppError with the spec's code on refusal;
   * a refused command appends nothing.
   */
  execute<K extends CommandType>(type: K, input: CommandInput<K>, context: CommandContext): Promise<CommandOutcome<CommandResult<K>>>;
}
