import 'reflect-metadata';

const HELP = `usage: npm run cli -- <command> [options]

commands:
  merchant:create --name <name>   create a merchant and print its first API key (shown once)
  help, --help, -h                this list

The database is the server's: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR (./.data).`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    console.log(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'merchant:create') {
    console.error(`unknown command ${command}\n\n${HELP}`);
    return 2;
  }
  const i = rest.indexOf('--name');
  const name = i >= 0 ? rest[i + 1]?.trim() : undefined;
  if (!name) {
    console.error(`merchant:create needs --name <name>\n\n${HELP}`);
    return 2;
  }
  // Loaded only for a command that needs the database, so --help answers at once.
  const { createMerchantCommand } = await import('./cli-commands.js');
  await createMerchantCommand(name);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error('failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
