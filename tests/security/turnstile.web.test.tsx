// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContactForm } from '../../web/features/contact/components/contact-form';
import { NewsletterSignup } from '../../web/features/newsletter/components/newsletter-signup';
import { TURNSTILE_SCRIPT_URL } from '../../web/lib/turnstile-widget';
import { captureFetch, json, renderForm, type SentRequest } from '../harness/web/form-harness';

// The bot check on every public write (docs/product.md §8): Cloudflare Turnstile's script loads only when a
// visitor starts filling a form, and the form sends the widget's token. happy-dom runs no external
// script (told below to report it as loaded), so Cloudflare's `window.turnstile` is a stand-in here:
// what the real script would define.

const SITE_KEY = '0x4AAAAAAABkMYinukE8nzY';

// happy-dom loads no external script; as a browser would, it reports this one as loaded.
(window as unknown as { happyDOM: { settings: { handleDisabledFileLoadingAsSuccess: boolean } } }).happyDOM.settings.handleDisabledFileLoadingAsSuccess = true;

const turnstileScripts = () => [...document.querySelectorAll<HTMLScriptElement>('script')].filter((s) => s.src === TURNSTILE_SCRIPT_URL);

function fakeCloudflare() {
  const rendered: { container: HTMLElement; sitekey: string; appearance?: string }[] = [];
  const resets: string[] = [];
  window.turnstile = {
    render(container, options) {
      rendered.push({ container, sitekey: options.sitekey, appearance: options.appearance });
      // Cloudflare answers on its own a moment later (managed, no interaction needed).
      setTimeout(() => options.callback?.(`token-${rendered.length}`), 10);
      return `widget-${rendered.length}`;
    },
    reset: (id) => void resets.push(id),
  };
  return { rendered, resets };
}

const answer = (request: SentRequest) =>
  request.url === '/api/site-config'
    ? json({ gtmId: null, turnstileSiteKey: SITE_KEY })
    : json({ message: 'ok' }, request.url === '/api/contact' ? 201 : 200);

afterEach(() => {
  vi.unstubAllEnvs();
  // The widget module keeps the site key and the script for the page's life: a fresh page per test.
  vi.resetModules();
  delete window.turnstile;
  for (const script of turnstileScripts()) script.remove();
});

describe('Turnstile on the public forms, with a site key configured', () => {
  beforeEach(() => {
    vi.stubEnv('VITE_TURNSTILE', '1');
  });

  it('loads nothing with the page, then the script once the visitor starts filling the form, and sends the token', async () => {
    const sent = captureFetch(answer);
    const cloudflare = fakeCloudflare();
    renderForm(<ContactForm clientPortal="https://portal.example/login" />);

    // The page alone: no script, no request.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(turnstileScripts()).toHaveLength(0);
    expect(sent).toEqual([]);

    const user = userEvent.setup();
    await user.click(screen.getByRole('textbox', { name: 'Name' }));
    await waitFor(() => expect(turnstileScripts()).toHaveLength(1));
    expect(sent).toEqual([{ method: 'GET', url: '/api/site-config', body: undefined }]);
    await waitFor(() => expect(cloudflare.rendered).toHaveLength(1));
    // Rendered inside the form, invisible unless Cloudflare needs the visitor.
    expect(cloudflare.rendered[0]).toMatchObject({ sitekey: SITE_KEY, appearance: 'interaction-only' });
    expect(cloudflare.rendered[0].container.closest('form')).not.toBeNull();

    await user.paste('Ann Lee');
    await user.click(screen.getByRole('textbox', { name: 'Email' }));
    await user.paste('ann@example.com');
    await user.click(screen.getByRole('textbox', { name: 'Message' }));
    await user.paste('Please call me about my 2025 return.');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));

    await waitFor(() => expect(sent.some((r) => r.url === '/api/contact')).toBe(true));
    expect(sent.find((r) => r.url === '/api/contact')!.body).toMatchObject({ name: 'Ann Lee', turnstileToken: 'token-1' });
    // Still one script and one widget however many fields were focused; the spent token is reset.
    expect(turnstileScripts()).toHaveLength(1);
    expect(cloudflare.rendered).toHaveLength(1);
    await waitFor(() => expect(cloudflare.resets).toEqual(['widget-1']));
  });

  it('renders no widget and sends no token when the site has no key', async () => {
    const sent = captureFetch((request) => (request.url === '/api/site-config' ? json({ gtmId: null, turnstileSiteKey: null }) : json({ message: 'ok' })));
    renderForm(<NewsletterSignup />);
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Email address'));
    await user.paste('reader@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(sent.some((r) => r.url === '/api/newsletter/subscribe')).toBe(true));
    expect(turnstileScripts()).toHaveLength(0);
    expect(sent.find((r) => r.url === '/api/newsletter/subscribe')!.body).toEqual({ email: 'reader@example.com' });
  });
});

describe('Turnstile on the public forms, in a build without a site key', () => {
  it('asks for nothing and sends no token, whatever the visitor does', async () => {
    const sent = captureFetch(answer);
    renderForm(<NewsletterSignup />);
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Email address'));
    await user.paste('reader@example.com');
    await user.click(screen.getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent).toEqual([{ method: 'POST', url: '/api/newsletter/subscribe', body: { email: 'reader@example.com' } }]);
    expect(turnstileScripts()).toHaveLength(0);
  });
});
