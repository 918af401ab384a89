// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TurnstileWarning } from '../../web/features/admin/components/turnstile-warning';
import { captureFetch, json, renderForm } from '../harness/web/form-harness';

// The signed-in admin panel's warning (README, "Deploying to Cloudflare", Turnstile): shown while
// the site runs on a public HTTPS origin without Turnstile, never on localhost.

const happyDOM = (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM;

function openAt(url: string, status: { secretSet: boolean; siteKeySet: boolean }) {
  happyDOM.setURL(url);
  const sent = captureFetch(() => json(status));
  renderForm(<TurnstileWarning />);
  return sent;
}

/** Lets any request and render settle, so an absent warning is really absent. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

afterEach(() => {
  happyDOM.setURL('http://localhost:3000/');
});

describe('the Turnstile warning', () => {
  it('on a public HTTPS origin without Turnstile: warns and says what to set', async () => {
    const sent = openAt('https://www.northgatecpa.example/admin', { secretSet: false, siteKeySet: false });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Turnstile is off: the public forms have no bot protection');
    expect(alert.textContent).toContain('TURNSTILE_SITE_KEY');
    expect(alert.textContent).toContain('TURNSTILE_SECRET');
    expect(sent.map((r) => r.url)).toEqual(['/api/admin/turnstile']);
  });

  it('with the secret but no site key: says the forms are refused', async () => {
    openAt('https://www.northgatecpa.example/admin', { secretSet: true, siteKeySet: false });
    expect((await screen.findByRole('alert')).textContent).toContain('the public forms are refused');
  });

  it('with the site key but no secret: says nothing is checked', async () => {
    openAt('https://northgatecpa.example/admin', { secretSet: false, siteKeySet: true });
    expect((await screen.findByRole('alert')).textContent).toContain('nothing is checked');
  });

  it('with Turnstile configured: nothing shown', async () => {
    const sent = openAt('https://www.northgatecpa.example/admin', { secretSet: true, siteKeySet: true });
    await waitFor(() => expect(sent).toHaveLength(1));
    await settle();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('on localhost (plain HTTP or HTTPS): nothing shown and nothing asked', async () => {
    for (const url of ['http://localhost:8787/admin', 'https://localhost:8787/admin', 'http://127.0.0.1:8787/admin']) {
      const sent = openAt(url, { secretSet: false, siteKeySet: false });
      await settle();
      expect(screen.queryByRole('alert'), url).toBeNull();
      expect(sent, url).toEqual([]);
    }
  });

  it('on a public origin over plain HTTP (the worker redirects it): nothing shown', async () => {
    openAt('http://www.northgatecpa.example/admin', { secretSet: false, siteKeySet: false });
    await settle();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
