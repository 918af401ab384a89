import { config } from 'zod/v4/core';

// zod 4 probes `new Function` to decide whether it may compile faster parsers. The site's CSP has
// no 'unsafe-eval', so the probe is blocked and reported as a CSP violation on every page with a
// form (Lighthouse flags it under Best Practices). Tell zod up front not to try.
config({ jitless: true });
