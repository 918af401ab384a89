// `npm start`: build the SPA, prepare .dev.vars, migrate the local D1, make sure the local admin
// exists, print how to sign in, and serve everything on http://localhost:8787 (wrangler dev --local).
import { buildSpa, startDevServer } from './lib/local-server.ts';
import { prepareDevVars, prepareLocalDatabase, printRunning } from './lib/local-state.ts';

const admin = prepareDevVars();
console.log('Building the site...');
buildSpa();
await prepareLocalDatabase(admin);

const port = Number(process.env.PORT ?? 8787);
const server = await startDevServer({ port, host: 'localhost', quiet: false });
printRunning(`http://localhost:${port}`, admin);
const shutdown = () => server.stop().then(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
server.process.on('exit', (code) => process.exit(code ?? 0));
