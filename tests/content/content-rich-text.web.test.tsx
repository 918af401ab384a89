// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { RichTextField } from '../../web/features/content-admin/rich-text-field';
import { renderForm } from '../harness/web/form-harness';

// docs/product.md §6.7: a rich paragraph's editor inserts only the subset's tags, and its preview
// shows what the page will (core/content/rich-text.ts): markup outside the subset as text.

function Harness({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  return <RichTextField id="story-0" label="Paragraph 1" value={value} onChange={setValue} />;
}

const area = () => document.getElementById('story-0') as HTMLTextAreaElement;
const preview = () => area().nextElementSibling?.querySelector('p:last-child') as HTMLElement;

describe('the rich text field', { timeout: 30_000 }, () => {
  it('wraps the selection in <strong>, <em> or a link to fill in', async () => {
    renderForm(<Harness initial="We file every return." />);
    area().setSelectionRange(3, 7);
    fireEvent.click(screen.getByRole('button', { name: 'Bold' }));
    await waitFor(() => expect(area().value).toBe('We <strong>file</strong> every return.'));
    expect(preview().querySelector('strong')?.textContent).toBe('file');

    area().setSelectionRange(0, 2);
    fireEvent.click(screen.getByRole('button', { name: 'Italic' }));
    await waitFor(() => expect(area().value).toBe('<em>We</em> <strong>file</strong> every return.'));

    const end = area().value.length - 1;
    area().setSelectionRange(end - 6, end);
    fireEvent.click(screen.getByRole('button', { name: 'Link' }));
    await waitFor(() => expect(area().value).toBe('<em>We</em> <strong>file</strong> every <a href="https://">return</a>.'));
    // The address is selected, ready to be typed over.
    await waitFor(() => expect(area().value.slice(area().selectionStart, area().selectionEnd)).toBe('https://'));
  });

  it('previews markup outside the subset as text, never as elements', () => {
    renderForm(<Harness initial={'Hi <script>alert(1)</script> <img src=x onerror=alert(2)> <a href="javascript:alert(3)">x</a> <a href="https://example.com" onclick="y">ok</a>'} />);
    const shown = preview();
    expect(shown.querySelector('script, img')).toBeNull();
    expect(shown.textContent).toContain('<script>alert(1)</script>');
    expect([...shown.querySelectorAll('a')].map((a) => a.outerHTML)).toEqual(['<a href="https://example.com">ok</a>']);
  });
});
