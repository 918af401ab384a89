import { adminRecordRoutes, fuzzRoutes } from '../harness/worker/fuzz-routes';

// Fuzzing (tests/harness/worker/fuzz-routes.ts) of the back office's records: messages, appointments,
// subscribers and newsletters.
fuzzRoutes(adminRecordRoutes);
