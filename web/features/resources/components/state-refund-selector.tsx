import { useId, useState } from 'react';
import type { SiteContent } from '#core/content/schema';
import { trackButtonClick } from '../../../lib/analytics';

/**
 * docs/product.md §1.3: all 50 states; choosing one with a refund-status page opens it in a new tab
 * (the link itself is not shown). The nine states without a state income tax on wages open nothing
 * and say why. A native select: keyboard and screen-reader support come for free.
 */
export function StateRefundSelector({ states: stateRefundLinks }: { states: SiteContent['resources']['stateLinks'] }) {
  const selectId = useId();
  const [message, setMessage] = useState('');

  const choose = (code: string) => {
    const state = stateRefundLinks.find((s) => s.code === code);
    if (!state) {
      setMessage('');
      return;
    }
    if (state.refundUrl) {
      trackButtonClick(`State refund: ${state.code}`, 'Resources');
      window.open(state.refundUrl, '_blank', 'noopener,noreferrer');
      setMessage(`${state.name}'s refund status page opened in a new tab.`);
    } else {
      setMessage(`${state.name} does not tax wages, so there is no state refund to check. Your federal refund status is linked above.`);
    }
  };

  return (
    <div>
      <label htmlFor={selectId} className="block text-sm font-medium text-slate-800">
        Select your state
      </label>
      <select
        id={selectId}
        defaultValue=""
        onChange={(event) => choose(event.target.value)}
        className="mt-2 block h-11 w-full rounded-md border border-slate-400 bg-white px-3 text-slate-900 focus:border-brand-600"
      >
        <option value="">Choose a state...</option>
        {stateRefundLinks.map((state) => (
          <option key={state.code} value={state.code}>
            {state.name}
          </option>
        ))}
      </select>
      <p className="mt-3 min-h-[3rem] text-sm text-slate-700" role="status" aria-live="polite">
        {message}
      </p>
    </div>
  );
}
