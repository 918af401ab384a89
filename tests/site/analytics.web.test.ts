import { afterEach, describe, expect, it } from 'vitest';
import { paymentAmount, trackPaymentAttempt } from '../../web/lib/analytics';

describe('payment_attempt value (docs/product.md §12)', () => {
  it.each([
    ['?amount=125.50', 125.5],
    ['?amount=80', 80],
    ['?ref=x&amount=0.99', 0.99],
    ['?amount=%2012.5%20', 12.5],
  ])('reads the amount of the return address %s as a number', (search, value) => {
    expect(paymentAmount(search)).toBe(value);
  });

  it.each(['', '?', '?amount=', '?amount=abc', '?amount=12abc', '?amount=-5', '?amount=$10', '?amount=1,000', '?amount=Infinity', '?amount=0x10', '?total=10'])(
    'gives 0 when the amount is absent or not a number: %j',
    (search) => {
      expect(paymentAmount(search)).toBe(0);
    },
  );

  describe('the event', () => {
    afterEach(() => {
      delete (globalThis as { window?: unknown }).window;
    });

    it('carries category Payments, the action and the value', () => {
      (globalThis as { window?: unknown }).window = {};
      trackPaymentAttempt('success', paymentAmount('?amount=42.10'));
      trackPaymentAttempt('error', paymentAmount(''));
      expect(window.dataLayer).toStrictEqual([
        { event: 'payment_attempt', category: 'Payments', action: 'success', value: 42.1 },
        { event: 'payment_attempt', category: 'Payments', action: 'error', value: 0 },
      ]);
    });
  });
});
