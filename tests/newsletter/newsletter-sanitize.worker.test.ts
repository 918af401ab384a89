import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../../worker/services/newsletter/sanitize-html';

// Payloads from the OWASP XSS filter evasion cheat sheet, html5sec.org and known mXSS reports.
const XSS_CORPUS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=http://xss.example/xss.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<script/xss src="http://xss.example/x.js"></script>',
  '<<script>alert(1);//<</script>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)">',
  '<IMG SRC=javascript:alert(1)>',
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<IMG SRC=`javascript:alert(1)`>',
  '<img src="jav&#x09;ascript:alert(1)">',
  '<img src="jav\tascript:alert(1)">',
  '<img src="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">',
  '<img src="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">',
  '<img src="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">',
  '<img src=" &#14;  javascript:alert(1);">',
  '<img/src=x/onerror=alert(1)>',
  '<img """><script>alert(1)</script>">',
  '<img src=data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+>',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="JAVASCRIPT:alert(1)">click</a>',
  '<a href=" javascript:alert(1)">click</a>',
  '<a href="java&#13;script:alert(1)">click</a>',
  '<a href="javascript&colon;alert(1)">click</a>',
  '<a href="vbscript:msgbox(1)">click</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
  '<a href="\u0001javascript:alert(1)">click</a>',
  '<a href="jav&#x0A;ascript:alert(1)">click</a>',
  '<a href="https://ok.example" onmouseover="alert(1)">hover</a>',
  '<a href="https://ok.example" ONCLICK="alert(1)">hover</a>',
  '<a/href="javascript:alert(1)">x</a>',
  '<body onload=alert(1)>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><input type="submit"></form>',
  '<input onfocus=alert(1) autofocus>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>',
  '<div style="background-image: url(javascript:alert(1))">x</div>',
  '<div style="width: expression(alert(1))">x</div>',
  '<div style="background:url(&#1;javascript:alert(1))">x</div>',
  '<div style="behavior: url(xss.htc)">x</div>',
  '<div style="color: red; } body { background: url(//evil.example/x)">x</div>',
  '<span style="x:\\65xpression(alert(1))">x</span>',
  '<style>@import "http://xss.example/xss.css";</style>',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
  '<td background="javascript:alert(1)">',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<!-- --!><img src=x onerror=alert(1)> -->',
  '<![CDATA[><script>alert(1)</script>]]>',
  '<?xml version="1.0"?><script>alert(1)</script>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<textarea></textarea><script>alert(1)</script>',
  '<title><img src=x onerror=alert(1)></title>',
  '<xmp><script>alert(1)</script></xmp>',
  '<template><script>alert(1)</script></template>',
  '<a href="https://ok.example"\nonclick=alert(1)>x</a>',
  '<p title="a" title="b" onclick="alert(1)">dup</p>',
  '<p <script>alert(1)</script>>',
  '<img src="x` `<script>alert(1)</script>"` `>',
  '<a href="#" onclick="alert(1)" title=\'"><script>alert(1)</script>\'>x</a>',
  '"><script>alert(1)</script>',
  '</p><script>alert(1)</script><p>',
  '<scri\u0000pt>alert(1)</scri\u0000pt>',
  '<img src=x:alert(1) onerror=eval(src)>',
  '<a href="&#x2F;&#x2F;evil.example">protocol relative</a>',
  '<img src=1 alt="\'><svg onload=alert(1)>">',
  '<div>unterminated <b>bold <i>italic',
];

interface Found {
  tag: string;
  attributes: [string, string][];
}

const ALLOWED_OUTPUT_TAGS = new Set(['a', 'b', 'strong', 'i', 'em', 'u', 's', 'small', 'sub', 'sup', 'mark', 'code', 'pre', 'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'span', 'div', 'section', 'header', 'footer', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption', 'img', 'center']);

/** Parses the sanitizer's output with workerd's own HTML parser (HTMLRewriter, lol-html), independent of our tokenizer. */
async function parse(html: string): Promise<{ elements: Found[]; comments: number }> {
  const elements: Found[] = [];
  let comments = 0;
  const rewriter = new HTMLRewriter()
    .on('*', {
      element(el) {
        elements.push({ tag: el.tagName.toLowerCase(), attributes: [...el.attributes].map(([n, v]) => [n.toLowerCase(), v]) });
      },
      comments() {
        comments++;
      },
    })
    .onDocument({ doctype() {}, comments() {} });
  await rewriter.transform(new Response(html, { headers: { 'content-type': 'text/html' } })).text();
  return { elements, comments };
}

describe('sanitizeHtml against an XSS corpus (runs in workerd)', () => {
  it.each(XSS_CORPUS.map((payload) => [payload]))('neutralises %s', async (payload) => {
    const out = sanitizeHtml(payload);
    const { elements, comments } = await parse(out);
    expect(comments).toBe(0);
    for (const element of elements) {
      expect(ALLOWED_OUTPUT_TAGS.has(element.tag), `tag <${element.tag}> in ${out}`).toBe(true);
      for (const [name, value] of element.attributes) {
        expect(name.startsWith('on'), `event handler ${name} in ${out}`).toBe(false);
        if (name === 'href' || name === 'src') {
          const normalised = value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
          expect(normalised, out).not.toMatch(/^(javascript|vbscript|data):/);
          expect(/^(https?:|mailto:|tel:|\/|#|[^:]*$)/.test(normalised), `${name}=${value}`).toBe(true);
        }
        if (name === 'style') expect(value.toLowerCase()).not.toMatch(/url|expression|javascript|behavior|\\/);
      }
    }
    expect(out.toLowerCase()).not.toMatch(/<(script|iframe|svg|math|object|embed|style|form|input|base|meta|link|body|textarea)\b/);
    // Outside attribute values (which the parser check above covers), no handler can hide.
    expect(out.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^>]*\son\w+\s*=/i);
    expect(out.toLowerCase()).not.toContain('javascript:');
  });

  it('is idempotent on its own output', () => {
    for (const payload of XSS_CORPUS) {
      const once = sanitizeHtml(payload);
      expect(sanitizeHtml(once), payload).toBe(once);
    }
  });
});

describe('sanitizeHtml keeps what a newsletter needs', () => {
  it('keeps formatting, lists, tables, safe links, images and safe inline styles', () => {
    const html =
      '<h2 style="color: #1e3a8a;">Title</h2><p>Text with <strong>bold</strong>, <em>em</em> &amp; entities &nbsp;&copy;.</p>' +
      '<ul><li>One</li><li>Two</li></ul><table width="100%" cellpadding="4"><tr><td colspan="2">Cell</td></tr></table>' +
      '<a href="https://northgatecpa.example/schedule" target="_blank" style="background-color: #1e3a8a; padding: 12px 24px; border-radius: 6px;">Book</a>' +
      '<a href="mailto:info@northgatecpa.example">Mail</a> <a href="tel:+17245550142">Call</a> <a href="/schedule">Relative</a>' +
      '<img src="https://northgatecpa.example/logo.png" alt="Logo" width="120"><br><hr>';
    expect(sanitizeHtml(html)).toBe(
      '<h2 style="color: #1e3a8a">Title</h2><p>Text with <strong>bold</strong>, <em>em</em> &amp; entities &nbsp;&copy;.</p>' +
        '<ul><li>One</li><li>Two</li></ul><table width="100%" cellpadding="4"><tr><td colspan="2">Cell</td></tr></table>' +
        '<a href="https://northgatecpa.example/schedule" target="_blank" style="background-color: #1e3a8a; padding: 12px 24px; border-radius: 6px" rel="noopener noreferrer">Book</a>' +
        '<a href="mailto:info@northgatecpa.example">Mail</a> <a href="tel:+17245550142">Call</a> <a href="/schedule">Relative</a>' +
        '<img src="https://northgatecpa.example/logo.png" alt="Logo" width="120"><br><hr>',
    );
  });

  it('drops unknown tags but keeps their text, escapes stray brackets and closes open tags', () => {
    expect(sanitizeHtml('<font color="red">Hi</font> 1 < 2 > 0 <b>open')).toBe('Hi 1 &lt; 2 &gt; 0 <b>open</b>');
    expect(sanitizeHtml('<p>a</div>b</p>')).toBe('<p>ab</p>');
    expect(sanitizeHtml('<ul><li>a<p>b</ul>after')).toBe('<ul><li>a<p>b</p></li></ul>after');
  });

  it('removes script and style content entirely', () => {
    expect(sanitizeHtml('a<script>var x = "</p>";</script>b<style>p{}</style>c')).toBe('abc');
  });
});
