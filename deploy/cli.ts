import { Command, CommanderError } from 'commander';
import { addAuthCommands } from './authCli.ts';
import { addProjectionCommands } from './projectionsCli.ts';
import { addTransferCommands } from './transferCli.ts';
import { addBackupCommands } from './backupCli.ts';
import { cliConfig } from './cliConfig.ts';
import { isConfigError } from './config/strataConfig.ts';
import { createRootLogger } from './logger.ts';
import { limitHeapGrowth } from './heapGrowth.ts';

export type CliIo = {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Reads a secret (a new password); default: standard input without echo on a TTY. */
  readonly readSecret?: (prompt: string) => Promise<string>;
  /** Answers a yes/no confirmation; default: one line from standard input. */
  readonly confirm?: (question: string) => Promise<boolean>;
  /** Draw progress bars; default: whether standard error is a terminal. */
  readonly progressBar?: boolean;
};

const USAGE_ERROR = 2;

const defaultIo: CliIo = {
  env: process.env,
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** `strata serve`: runs until a signal. Returns an exit code when it could not start, else null. */
async function serve(io: CliIo): Promise<number | null> {
  const config = cliConfig(io);
  if (config === null) return 1;
  const log = createRootLogger(config);
  limitHeapGrowth();
  try {
    // Loaded only here so usage and configuration errors answer without loading every role.
    const { shutdownOnSignals, startStrata } = await import('./main.ts');
    const handle = await startStrata(config, { log });
    shutdownOnSignals(handle, { log, timeoutMs: config.shutdownTimeoutMs });
    return null;
  } catch (err) {
    if (isConfigError(err)) io.stderr(`${err.message}\n`);
    log.fatal({ err }, 'startup failed');
    return 1;
  }
}

/**
 * Runs the operator CLI (operations.md §5) on `args` (without node and script). Resolves with the exit code, or
 * null while a server keeps running. Usage errors (unknown command or option) → 2.
 */
export async function runCli(args: readonly string[], io: CliIo = defaultIo): Promise<number | null> {
  let result: number | null = 0;
  const program = new Command('strata')
    .description('Strata: versioned, schema-validated JSON data over generated GraphQL and REST APIs')
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  program
    .command('serve')
    .description('start a process running the roles listed in ROLES')
    .action(async () => {
      result = await serve(io);
    });
  addAuthCommands(program, io, (code) => {
    result = code;
  });
  addProjectionCommands(program, io, (code) => {
    result = code;
  });
  addTransferCommands(program, io, (code) => {
    result = code;
  });
  addBackupCommands(program, io, (code) => {
    result = code;
  });
  if (args.length === 0) {
    io.stderr(program.helpInformation());
    return USAGE_ERROR;
  }
  try {
    await program.parseAsync([...args], { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : USAGE_ERROR;
  }
  return result;
}
