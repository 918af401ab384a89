import { sanitizeRichText } from '#core/content/rich-text';
import { Button } from '../../components/ui/button';
import { Textarea } from '../../components/ui/input';

// The editor of a rich paragraph (core/content/rich-text.ts): a textarea of the paragraph's HTML,
// buttons that wrap the selection in the subset's tags (<strong>, <em>, <a href>), and a preview of
// what the page will show, drawn from the sanitised text (anything outside the subset shows as text).

interface Props {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

export function RichTextField({ id, label, value, onChange, ...aria }: Props) {
  /** Wraps the selection in `open`…`close`, then selects `select` (the wrapped text, or the link's address). */
  const wrap = (open: string, close: string, selectAddress = false) => {
    const area = document.getElementById(id);
    if (!(area instanceof HTMLTextAreaElement)) return;
    const { selectionStart: start, selectionEnd: end } = area;
    const next = value.slice(0, start) + open + value.slice(start, end) + close + value.slice(end);
    onChange(next);
    requestAnimationFrame(() => {
      area.focus();
      if (selectAddress) {
        const at = start + open.indexOf('https://');
        area.setSelectionRange(at, at + 'https://'.length);
      } else {
        area.setSelectionRange(start + open.length, end + open.length);
      }
    });
  };

  return (
    <div className="space-y-2">
      <div role="group" aria-label={`Formatting of ${label}`} className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => wrap('<strong>', '</strong>')}>
          <strong>Bold</strong>
        </Button>
        <Button variant="outline" size="sm" onClick={() => wrap('<em>', '</em>')}>
          <em>Italic</em>
        </Button>
        <Button variant="outline" size="sm" onClick={() => wrap('<a href="https://">', '</a>', true)}>
          Link
        </Button>
      </div>
      <Textarea id={id} rows={4} value={value} onChange={(e) => onChange(e.target.value)} {...aria} />
      <div className="rounded-md border border-dashed border-slate-300 bg-slate-50 p-3 text-sm text-slate-800">
        <p className="mb-1 text-xs font-medium text-slate-600">Preview</p>
        {/* Safe: sanitizeRichText leaves only <strong>, <em>, <br> and <a> with a checked http(s), mailto: or tel: link. */}
        <p className="[&_a]:text-brand-700 [&_a]:underline" dangerouslySetInnerHTML={{ __html: sanitizeRichText(value) }} />
      </div>
    </div>
  );
}
