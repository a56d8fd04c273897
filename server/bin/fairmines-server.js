#!/usr/bin/env node
// fairmines-server: the operator's game service. Settings come from the environment (see README.md).
import { start } from '../src/server.js';

try {
  const server = await start();
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.once(signal, () => server.stop().then(() => process.exit(0), () => process.exit(1)));
  }
} catch (err) {
  process.stderr.write(`fairmines-server: ${err.message}\n`);
  process.exit(1);
}
