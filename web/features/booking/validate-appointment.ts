// Loaded on the visitor's first complete submit, not with the page: zod and the shared schema are
// the biggest part of the form's code and nobody needs them to read the page or pick a day.
// zod-jitless first: it must configure zod before the schema below is built (no eval probe under our CSP).
import '../../lib/zod-jitless';

export { appointmentSchema } from '#core/schemas/appointments';
