#!/usr/bin/env node
// fairmines-server: the operator's game service. Settings come from the environment (see README.md).
// `fairmines-server rekey` re-seals every active seed pair under the current state key, then exits.

// The service's modules load the fairmines addon: a clone where it was never built gets one line that says
// what to run, instead of napi's hint about an npm bug.
const load = (module) => import(module).catch((err) => {
  if (!/^(Cannot find|Failed to load) native binding/.test(err?.message ?? '')) throw err;
  process.stderr.write('fairmines-server: the fairmines addon is not built: run `make serve` from the repository root, '
    + 'or install the service from a release (README.md, "Install from the release")\n');
  process.exit(1);
});

const [command, ...rest] = process.argv.slice(2);
try {
  if (command === 'rekey' && rest.length === 0) {
    const { main } = await load('../src/rekey.js');
    process.exit(await main());
  } else if (command !== undefined) {
    throw new Error(`unknown command ${JSON.stringify(process.argv.slice(2).join(' '))}: `
      + 'run it with no argument to serve, or `rekey`');
  }
  const { start } = await load('../src/server.js');
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
