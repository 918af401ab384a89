import type { D1Migration } from 'cloudflare:test';
import type { Bindings } from '../../../worker/env';

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      /** wrangler.jsonc's KV bindings, emptied after each test (tests/harness/worker/apply-migrations.ts). */
      TEST_KV_BINDINGS: string[];
    }
    interface GlobalProps {
      mainModule: typeof import('../../../worker/index');
    }
  }
}
