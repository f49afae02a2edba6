import type { Logger } from 'pino';
import { invariant, isAppError } from '../contracts/index.ts';
import type { CommandGateway, CommandType, Position } from '../contracts/index.ts';
import type { CommandHandler, CommandHandlers } from './commandHandler.ts';

/** Routes each command to its handler; tells the system state about this process's appends. */
export function createCommandGateway(deps: {
  readonly handlers: CommandHandlers;
  readonly log: Logger;
  readonly onAppended?: (position: Position) => void;
}): CommandGateway {
  const { handlers, log, onAppended } = deps;
  return {
    async execute(type, input, context) {
      // The query side answers QUERY_SIDE_COMMANDS itself; they never reach a handler here.
      const handler = (handlers as unknown as Partial<Record<CommandType, CommandHandler<typeof type>>>)[type];
      invariant(typeof handler === 'function', `no handler for command ${String(type)}`);
      try {
        const outcome = await handler(input, context);
        if (outcome.position !== null) onAppended?.(outcome.position);
        log.debug({ command: type, correlationId: context.correlationId, position: outcome.position }, 'command executed');
        return outcome;
      } catch (err) {
        if (isAppError(err)) log.debug({ command: type, correlationId: context.correlationId, code: err.code }, 'command refused');
        throw err;
      }
    },
  };
}
