/**
 * `quire` (`npm run quire -- …`): the client CLI (every API operation over HTTP, with the key from
 * $QUIRE_API_KEY or a profile) and, clearly apart, the admin commands (organizations and keys).
 *
 * Exit codes: 0 success · 1 the work itself failed (a failed or cancelled run, a table with errors)
 * · 2 usage error · 3 the API answered with an error · 4 the API could not be reached · 130 Ctrl-C.
 */
import { parseArgs } from 'node:util';
import { ApiError, NetworkError } from '../lib/cli/api-client.ts';
import { ADMIN_HELP } from '../lib/cli/admin-help.ts';
import { clientCommands, GLOBAL_OPTIONS, makeContext, type ClientCommand } from '../lib/cli/client.ts';
import { renderApiError, UsageError } from '../lib/cli/output.ts';
import { CredentialsError } from '../lib/cli/profiles.ts';
import { AppError } from '../functions/platform/errors.ts';

const ADMIN_GROUPS = new Set(['orgs', 'keys', 'members']);
/** Global options that take a value: their value is not a command word. */
const GLOBAL_WITH_VALUE = new Set(['--profile', '--base-url']);

export const EXIT = { ok: 0, workFailed: 1, usage: 2, api: 3, network: 4 } as const;

function optionHelp(options: ClientCommand['options'] = {}): string[] {
  return Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.placeholder ? ` ${o.placeholder}` : ''}${o.multiple ? ' …' : ''}`;
    return `  ${flag.padEnd(32)} ${o.description}`;
  });
}

function overview(): string {
  const usage = (c: ClientCommand) => `${c.name}${c.args ? ` ${c.args}` : ''}`;
  const width = Math.max(...clientCommands.map((c) => usage(c).length)) + 2;
  return [
    'Quire CLI',
    '',
    'Usage: quire <command> [arguments] [options]      (in this repository: npm run quire -- <command> …)',
    '',
    'Client commands — the HTTP API with an API key ($QUIRE_API_KEY, or --profile NAME).',
    'The key decides the environment (test or production); the base URL only picks the deployment.',
    '',
    ...clientCommands.map((c) => `  ${usage(c).padEnd(width)}${c.summary}`),
    '',
    'Options of every client command:',
    ...optionHelp(GLOBAL_OPTIONS),
    '',
    'Run `quire <command> --help` for the options of a command.',
    '',
    ADMIN_HELP,
    '',
    'Exit codes: 0 ok, 1 the run failed or was cancelled, 2 usage error, 3 API error, 4 network error.',
  ].join('\n');
}

function commandHelp(c: ClientCommand): string {
  return [`Usage: quire ${c.name}${c.args ? ` ${c.args}` : ''} [options]`, '', c.summary, '', 'Options:', ...optionHelp({ ...c.options, ...GLOBAL_OPTIONS })].join('\n');
}

/** The command words (the first one or two non-option arguments) and what is left of argv. */
function findCommand(argv: string[]): { command?: ClientCommand; words: string[]; rest: string[] } {
  const wordIndexes: number[] = [];
  for (let i = 0; i < argv.length && wordIndexes.length < 2; i++) {
    const token = argv[i]!;
    if (token.startsWith('-')) {
      if (GLOBAL_WITH_VALUE.has(token)) i++;
      continue;
    }
    wordIndexes.push(i);
  }
  const words = wordIndexes.map((i) => argv[i]!);
  for (const count of [2, 1]) {
    const name = words.slice(0, count).join(' ');
    const command = clientCommands.find((c) => c.name === name);
    if (command) return { command, words: words.slice(0, count), rest: argv.filter((_, i) => !wordIndexes.slice(0, count).includes(i)) };
  }
  return { words, rest: argv };
}

async function main(argv: string[]): Promise<number> {
  const first = argv.find((a) => !a.startsWith('-'));
  if (first && ADMIN_GROUPS.has(first)) {
    // Loaded only for an admin command: it brings the table client and members' code along.
    const { runAdmin } = await import('../lib/cli/admin.ts');
    await runAdmin(argv);
    return EXIT.ok;
  }
  const { command, words, rest } = findCommand(argv);
  if (!command) {
    if (!words.length) {
      console.log(overview());
      return argv.includes('--help') || argv.includes('-h') || argv.length === 0 ? EXIT.ok : EXIT.usage;
    }
    throw new UsageError(`Unknown command "${words.join(' ')}". Run quire --help for the list.`);
  }
  const options = { ...GLOBAL_OPTIONS, ...command.options };
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: Object.fromEntries(Object.entries(options).map(([name, o]) => [name, { type: o.type, ...(o.multiple ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) }])),
  });
  if (values.help) {
    console.log(commandHelp(command));
    return EXIT.ok;
  }
  return (await command.run(makeContext(positionals, values as Record<string, string | boolean | string[] | undefined>))) ?? EXIT.ok;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    if (error instanceof UsageError || error instanceof CredentialsError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(error.message);
      process.exit(EXIT.usage);
    }
    if (error instanceof ApiError) {
      console.error(renderApiError(error.status, error.body));
      process.exit(EXIT.api);
    }
    if (error instanceof NetworkError) {
      console.error(error.message);
      process.exit(EXIT.network);
    }
    // Admin commands talk to the table directly and fail with the service's own errors.
    console.error(error instanceof AppError ? `Error: ${JSON.stringify(error.body())}` : `Error: ${error.message}`);
    process.exit(1);
  },
);
