import { describe, expect, inject, it } from 'vitest';
import { browserPerFile } from '../harness/e2e/admin-helpers';
import { DESKTOP, expectToast, islandReady, newPage, PHONE } from '../harness/e2e/browser';

const shared = browserPerFile();

describe('the site shell', () => {
  it('serves the home page with header, footer and security headers, and no console errors', async () => {
    const { page, errors, context } = await newPage(shared.browser);
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');
    await expect.poll(() => page.locator('h1').count()).toBe(1);
    await expect.poll(() => page.getByRole('link', { name: 'Get Started' }).first().getAttribute('href')).toBe('/contact');
    expect(await page.getByText('Professional accounting services you can trust.').isVisible()).toBe(true);
    const payNow = page.getByRole('link', { name: /Pay Now/ }).first();
    expect(await payNow.getAttribute('target')).toBe('_blank');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the 404 page for an unknown path', async () => {
    const { page, context } = await newPage(shared.browser);
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('404 Page Not Found');
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('opens and closes the mobile menu on a phone', async () => {
    const { page, context } = await newPage(shared.browser, PHONE);
    await page.goto('/');
    await islandReady(page, 'header');
    const toggle = page.getByRole('button', { name: 'Toggle menu' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    const mobileNav = page.getByRole('navigation', { name: 'Mobile' });
    await mobileNav.getByRole('link', { name: 'FAQ' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/faq');
    expect(await mobileNav.count()).toBe(0);
    await context.close();
  });
});

describe('admin sign-in', () => {
  it('rejects a wrong password with the spec toast', async () => {
    const { page, context } = await newPage(shared.browser);
    await page.goto('/admin');
    await page.getByLabel('Username').fill(inject('admin').username);
    await page.getByLabel('Password').fill('definitely-wrong');
    await page.getByRole('button', { name: 'Login' }).click();
    await expectToast(page, 'Login failed', 'Invalid username or password');
    await context.close();
  });

  it('signs in, survives a reload, and signs out', async () => {
    const { page, context, errors } = await newPage(shared.browser, DESKTOP);
    const admin = inject('admin');
    await page.goto('/admin');
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expectToast(page, 'Login successful', 'Welcome to the admin panel');
    await expect.poll(() => page.getByRole('heading', { name: 'Admin Panel' }).isVisible()).toBe(true);

    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'admin_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');

    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Admin Panel' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Login' }).isVisible()).toBe(true);
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: 'Login' }).isVisible()).toBe(true);
    expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    await context.close();
  });

  it('/admin/login shows the same card and goes on to /admin after signing in', async () => {
    const { page, context } = await newPage(shared.browser);
    const admin = inject('admin');
    await page.goto('/admin/login');
    await page.getByLabel('Username').fill(admin.username);
    await page.getByLabel('Password').fill(admin.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/admin');
    await expect.poll(() => page.getByRole('heading', { name: 'Admin Panel' }).isVisible()).toBe(true);
    await context.close();
  });
});
