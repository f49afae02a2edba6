// docs/reference/cli.md from commander's help output: `strata --help` and the help of every command under it, as
// the CLI prints them (deploy/cli.ts runCli, output captured).
import { runCli } from '../../deploy/cli.ts';
import { generatedBanner } from './markdown.ts';

async function helpOf(path: readonly string[]): Promise<string> {
  let out = '';
  const io = { env: {}, stdout: (text: string) => void (out += text), stderr: (text: string) => void (out += text) };
  await runCli([...path, '--help'], io);
  return out.trimEnd();
}

/** The commands a help text lists (`Commands:` block), without commander's own `help`. */
function commandsOf(help: string): string[] {
  const block = help.split(/\nCommands:\n/)[1] ?? '';
  return block
    .split('\n')
    .map((line) => /^ {2}([a-z][\w-]*)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
}

export async function renderCliPage(): Promise<string> {
  // Help is wrapped to the terminal's width; a page must not depend on where it was generated.
  const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true });
  try {
    const sections: string[] = [];
    const walk = async (path: readonly string[]): Promise<void> => {
      const help = await helpOf(path);
      sections.push(`## strata${path.map((p) => ` ${p}`).join('')}`, '', '```text', help, '```', '');
      for (const command of commandsOf(help)) await walk([...path, command]);
    };
    await walk([]);
    return [
      generatedBanner(['the help output of deploy/cli.ts']),
      '',
      '# CLI',
      '',
      'One executable, `strata` (`deploy/bin/strata.mjs`; `npx strata …` in a clone, `npm start` runs `strata serve`).',
      'Every command reads the same environment variables as the server ([configuration](configuration.md)) and',
      'exits with 0 on success, 1 when the configuration is invalid or the command failed, and 2 on a usage error',
      '(operations.md §5). Below, the help of every command as the CLI prints it.',
      '',
      ...sections,
    ].join('\n');
  } finally {
    if (tty === undefined) delete (process.stdout as { isTTY?: boolean }).isTTY;
    else Object.defineProperty(process.stdout, 'isTTY', tty);
  }
}
