import { adminRecordRoutes, fuzzRoutes } from './fuzz-routes';

// Fuzzing (tests/worker/fuzz-routes.ts) of the back office's records: messages, appointments,
// subscribers and newsletters.
fuzzRoutes(adminRecordRoutes);
