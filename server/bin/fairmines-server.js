#!/usr/bin/env node
// fairmines-server: the operator's game service. Settings come from the environment (see README.md).
// `fairmines-server rekey` re-seals every active seed pair under the current state key, then exits.
import { start } from '../src/server.js';

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'rekey' && rest.length === 0) {
    const { main } = await import('../src/rekey.js');
    process.exit(await main());
  } else if (command !== undefined) {
    throw new Error(`unknown command ${JSON.stringify(process.argv.slice(2).join(' '))}: `
      + 'run it with no argument to serve, or `rekey`');
  }
  const server = await start();
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => server.stop().then(() => process.exit(0), () => process.exit(1)));
  }
  // Started while the database was down, then refused (its state keys are not the database's): it ends.
  server.ready.catch((err) => {
    process.stderr.write(`fairmines-server: ${err.message}\n`);
    server.stop().finally(() => process.exit(1));
  });
} catch (err) {
  process.stderr.write(`fairmines-server: ${err.message}\n`);
  process.exit(1);
}
