import { fuzzRoutes, publicRoutes } from '../harness/worker/fuzz-routes';

// Fuzzing (tests/harness/worker/fuzz-routes.ts) of the visitors' routes and the sign-in ones; the back
// office's routes are fuzzed by fuzz-admin-records.test.ts and fuzz-admin-content.test.ts, which run
// beside this file.
fuzzRoutes(publicRoutes);
