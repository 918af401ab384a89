import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../../../components/ui/button';
import { adminSessionKey } from '../api/session';
import { useTwoFactorStatus } from '../api/two-factor';
import { SignOutButton } from './sign-out-button';
import { TwoFactorPanel } from './two-factor-panel';

/**
 * What an account sees, on every admin screen, while the owner requires two-factor sign-in and it
 * has none yet (docs/product.md §6.8): the set-up, and nothing else until it is on (the API
 * refuses everything else meanwhile, worker/middleware/require-permission.ts). Once on, and the
 * recovery codes seen, Continue reads the session again and the screen asked for appears.
 */
export function TwoFactorEnrolment() {
  const queryClient = useQueryClient();
  const status = useTwoFactorStatus();
  return (
    <section className="mx-auto max-w-2xl space-y-6 px-4 py-10 [overflow-wrap:anywhere] sm:px-6">
      <div>
        <h1 className="text-3xl font-bold text-brand-800">Set up two-factor sign-in</h1>
        <p className="mt-1 text-slate-600">
          The firm requires two-factor sign-in for every account. Set it up with an authenticator app to continue; until then the admin panel stays closed.
        </p>
      </div>
      <TwoFactorPanel />
      <div className="flex flex-wrap gap-2">
        {status.data?.enabled && <Button onClick={() => void queryClient.invalidateQueries({ queryKey: adminSessionKey })}>Continue to the admin panel</Button>}
        <SignOutButton />
      </div>
    </section>
  );
}
