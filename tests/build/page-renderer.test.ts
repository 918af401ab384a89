// The worker's page renderer (web/entry-worker.tsx, built by scripts/prerender.ts into
// dist/page-renderer/; docs/decisions/0016-published-content-serving.md) renders what the
// prerender wrote: with the default content, every public page's head and root come out exactly as
// in the static file, so a published page is the same page with other words. Prints the render's
// CPU time per page (the figure the decision record quotes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { defaultContent } from '#core/content/default-content';
import type { SiteContent } from '#core/content/schema';
import { htmlFileFor, publicRoutes } from '#core/public-routes';
import { readWranglerConfig } from '../../scripts/lib/wrangler-config';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Renderer {
  renderPage(pathname: string, content: SiteContent): Promise<{ headTags: string; html: string; status: number }>;
}

const between = (html: string, open: string, close: string) => {
  const start = html.indexOf(open);
  const end = html.lastIndexOf(close);
  if (start < 0 || end < start) throw new Error(`no ${open}...${close} in the page`);
  return html.slice(start + open.length, end);
};

describe('the page renderer the worker bundles', () => {
  it('renders every public page with the defaults exactly as the prerender wrote it', async () => {
    const { renderPage } = (await import(pathToFileURL(join(root, 'dist/page-renderer/entry-worker.js')).href)) as Renderer;
    const pages = [...publicRoutes.map((route) => ({ path: route.path, file: htmlFileFor(route.path) })), { path: '/__not-found__', file: '404.html' }];
    const timings: string[] = [];
    for (const { path, file } of pages) {
      const prerendered = readFileSync(join(inject('buildDir'), file), 'utf8');
      const first = performance.now();
      const rendered = await renderPage(path, defaultContent);
      const firstMs = performance.now() - first;
      expect(rendered.headTags, path).toBe(between(prerendered, '<!--app-head-->', '<!--/app-head-->'));
      expect(rendered.html, path).toBe(between(prerendered, '<!--app-html-->', '<!--/app-html-->'));
      const runs = 20;
      const started = performance.now();
      for (let i = 0; i < runs; i++) await renderPage(path, defaultContent);
      timings.push(`${path} first ${firstMs.toFixed(1)} ms, then ${((performance.now() - started) / runs).toFixed(1)} ms`);
    }
    console.log(`page renderer, time per render (Node, this machine; the first page's first render includes loading the module): ${timings.join('; ')}`);
  });

  it("derives each page's title, description, structured data and stated facts from the content, so a publish changes them", async () => {
    const { renderPage } = (await import(pathToFileURL(join(root, 'dist/page-renderer/entry-worker.js')).href)) as Renderer;
    const content = structuredClone(defaultContent);
    content.prices.individualReturn = 'from $650';
    content.prices.initialConsultation = 'complimentary';
    content.firm.yearsOfExperience = '12+';
    content.firm.contact.address = { ...content.firm.contact.address, city: 'Cranberry Township', region: 'NY' };
    content.resources.taxFacts.taxYear = 2026;
    content.resources.taxFacts.facts[0] = 'The IRS standard mileage rate for business use of a car is 72.5 cents per mile in 2026.';
    const description = async (path: string) => /<meta name="description" content="([^"]*)"/.exec((await renderPage(path, content)).headTags)?.[1];
    const faq = await description('/faq');
    expect(faq).toContain('individual returns from $650');
    expect(faq).toContain('complimentary first consultation');
    const about = await description('/about');
    expect(about).toContain('in Cranberry Township, NY: a New York CPA firm with over 12 years of experience');
    expect(await description('/resources')).toContain('learn 2026 tax facts such as the 72.5 cents per mile mileage rate.');
    expect(await description('/services')).toContain('from a Cranberry Township, NY CPA firm.');
    const home = await renderPage('/', content);
    expect(home.headTags).toContain('<title>CPA Firm in Cranberry Township, NY | Tax, Accounting &amp; Payroll');
    expect(home.headTags).toContain('in Cranberry Township, NY and nationwide with tax preparation');
    expect(home.headTags).toContain('Complimentary initial consultation.');
    expect(home.headTags).toContain('"areaServed":[{"@type":"State","name":"New York"}');
    expect(home.html).toContain('Cranberry Township, New York</p>');
    expect(home.html).toContain('for clients in <!-- -->New York<!-- --> and across the country');
    content.firm.hours = [{ days: 'Monday - Thursday', time: '8:00 AM - 6:00 PM' }, { days: 'Friday - Sunday', time: 'Closed' }];
    content.firm.confirmationPromise = 'We call you back the same day to confirm your appointment.';
    const schedule = await renderPage('/schedule', content);
    expect(schedule.headTags).toContain('content="Book a complimentary initial consultation with a CPA."');
    expect(schedule.html).toContain('Monday - Thursday: 8:00 AM - 6:00 PM<br/>Friday - Sunday: Closed');
    expect(schedule.html).toContain('Pick a weekday and a time. We call you back the same day to confirm your appointment.');
    expect(schedule.html).toContain('* Required fields. We call you back the same day to confirm your appointment. Questions? Call');
    expect(schedule.html).not.toContain('24 hours');
    content.resources.taxFacts.facts.splice(0, 1);
    expect(await description('/resources')).toMatch(/learn 2026 tax facts\.$/);
  });

  it("styles a published rich-text link from the first paint, though the defaults' text has none", () => {
    for (const file of ['about.html', 'privacy-policy.html']) {
      const page = readFileSync(join(inject('buildDir'), file), 'utf8');
      expect(page, file).toContain('data-rich-text=""');
      const inline = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('');
      expect(inline, file).toMatch(/\[data-rich-text\] a\{[^}]*text-decoration-line:underline/);
    }
  });

  it('is reached through the worker on every public route (wrangler.jsonc run_worker_first)', () => {
    const patterns = readWranglerConfig().assets?.run_worker_first;
    expect(Array.isArray(patterns)).toBe(true);
    for (const route of publicRoutes) expect(patterns, route.path).toContain(route.path);
  });
});
