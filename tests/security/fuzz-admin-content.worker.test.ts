import { adminContentRoutes, fuzzRoutes } from '../harness/worker/fuzz-routes';

// Fuzzing (tests/harness/worker/fuzz-routes.ts) of the back office's scheduler, e-mail and site content.
fuzzRoutes(adminContentRoutes);
