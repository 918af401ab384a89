import { adminContentRoutes, fuzzRoutes } from './fuzz-routes';

// Fuzzing (tests/worker/fuzz-routes.ts) of the back office's scheduler, e-mail and site content.
fuzzRoutes(adminContentRoutes);
