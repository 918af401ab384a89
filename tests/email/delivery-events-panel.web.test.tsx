// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DeliveryEventsPanel } from '../../web/features/admin/components/email-auth-panel';
import { captureFetch, json, renderForm, shownToasts, type Answer } from '../harness/web/form-harness';

// The admin panel's "Delivery events" block (docs/product.md §5.8, §6.2): it
// shows the enrollment the server reports, enrolls on click and toasts the server's own words.

const ENDPOINT = 'https://www.northgatecpa.example/api/webhooks/mailchannels';
const enableButton = () => screen.getByRole('button', { name: 'Enable delivery events' }) as HTMLButtonElement;

function show(answer: Answer) {
  const sent = captureFetch(answer);
  renderForm(<DeliveryEventsPanel />);
  return sent;
}

describe('the Delivery events block', () => {
  it.each([
    [
      'without the MailChannels key says so and keeps the button disabled',
      false,
      'Delivery events need the MailChannels API key (MAILCHANNELS_API_KEY): without it e-mail stays in the outbox.',
      'Not enrolled',
    ],
    [
      'with the key but without the account id says the events are refused, and keeps the button disabled',
      true,
      'Delivery events need your MailChannels account id (MAILCHANNELS_ACCOUNT_ID in wrangler.jsonc "vars"): until it is set, every delivery event is refused (503).',
      'Events refused: account id missing',
    ],
  ])('%s', async (_name, configured, message, state) => {
    show(() => json({ configured, accountIdSet: false, enrolled: false, endpoint: ENDPOINT, message }));
    await waitFor(() => expect(screen.getByText(message)).toBeTruthy());
    expect(screen.getByText(state)).toBeTruthy();
    expect(enableButton().disabled).toBe(true);
  });

  it('enrolls on click, toasts the server message and shows the new state', async () => {
    let enrolled = false;
    const sent = show((request) => {
      if (request.method === 'POST') {
        enrolled = true;
        return json({ enrolled: true, endpoint: ENDPOINT, message: `Delivery events enrolled: MailChannels will post them to ${ENDPOINT}` });
      }
      return json({ configured: true, accountIdSet: true, enrolled, endpoint: ENDPOINT, message: enrolled ? 'Enrolled here' : 'Delivery events are not enrolled yet' });
    });
    await waitFor(() => expect(enableButton().disabled).toBe(false));
    await userEvent.setup().click(enableButton());
    await waitFor(() =>
      expect(shownToasts()).toEqual([
        { variant: 'default', title: 'Delivery events enabled', description: `Delivery events enrolled: MailChannels will post them to ${ENDPOINT}` },
      ]),
    );
    await waitFor(() => expect(screen.getByText('Enrolled')).toBeTruthy());
    expect(enableButton().disabled).toBe(true);
    expect(sent.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual(['/api/admin/delivery-events/enroll']);
  });

  it('toasts MailChannels failure in the server words', async () => {
    show((request) =>
      request.method === 'POST'
        ? json({ message: 'MailChannels rejected the API key (403)' }, 502)
        : json({ configured: true, accountIdSet: true, enrolled: false, endpoint: ENDPOINT, message: 'Delivery events are not enrolled yet' }),
    );
    await waitFor(() => expect(enableButton().disabled).toBe(false));
    await userEvent.setup().click(enableButton());
    await waitFor(() =>
      expect(shownToasts()).toEqual([{ variant: 'destructive', title: 'Could not enable delivery events', description: 'MailChannels rejected the API key (403)' }]),
    );
  });
});
