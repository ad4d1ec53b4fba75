import 'reflect-metadata';
import { VERSION } from './config/version';

const HELP = `booking-platform-api ${VERSION}

usage: npm run cli -- <command> [options]

commands:
  merchant:create --name <name>   create a merchant and print its first API key (shown once)
  demo:seed [--force]             create the demo merchant (a salon and a tennis club with services,
                                  rules, codes and bookings) and print its API key; does nothing
                                  when it exists; --force: also on a database that holds other data
  keys:list                       every API key: id, prefix, name, merchant, companies, created,
                                  revoked (never a secret)
  keys:revoke <id>                revoke an API key (refused by every server from its next request)
  migrate:status                  the migrations applied to the database and those pending
  version, --version, -v          the version
  help, --help, -h                this list

The database is the server's: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR (./.data).`;

type Command = (args: string[]) => Promise<number>;

/** Usage mistakes exit 2 with the list; a command that ran exits 0, or 1 when it failed. */
function usage(message: string): number {
  console.error(`${message}\n\n${HELP}`);
  return 2;
}

// Loaded only for a command that needs the database, so --help and --version answer at once
// (required, not imported: the built CLI and the sources run as CommonJS alike).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const load = (): typeof import('./cli-commands') => require('./cli-commands');

const commands = (): Record<string, Command> => ({
  'merchant:create': async (args) => {
    const i = args.indexOf('--name');
    const name = i >= 0 ? args[i + 1]?.trim() : undefined;
    if (!name) return usage('merchant:create needs --name <name>');
    return load().createMerchantCommand(name);
  },
  'demo:seed': async (args) => {
    const unknown = args.filter((a) => a !== '--force');
    if (unknown.length) return usage(`demo:seed takes only --force, not ${unknown.join(' ')}`);
    return load().demoSeedCommand({ force: args.includes('--force') });
  },
  'keys:list': async (args) => {
    if (args.length) return usage('keys:list takes no arguments');
    return load().listKeysCommand();
  },
  'keys:revoke': async (args) => {
    if (args.length !== 1) return usage('keys:revoke needs the id of one key (keys:list shows them)');
    return load().revokeKeyCommand(args[0]);
  },
  'migrate:status': async (args) => {
    if (args.length) return usage('migrate:status takes no arguments');
    return load().migrateStatusCommand();
  },
});

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === 'version' || command === '--version' || command === '-v') {
    console.log(VERSION);
    return 0;
  }
  const all = commands();
  if (!Object.hasOwn(all, command)) return usage(`unknown command ${command}`);
  return all[command](rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error('failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
