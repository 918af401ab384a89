import StarterKit from '@tiptap/starter-kit';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { Bold, Heading2, Heading3, Italic, Link2, List, ListOrdered, Quote, Redo2, Underline, Undo2, type LucideIcon } from 'lucide-react';
import { useEffect } from 'react';

/**
 * The newsletter body's rich-text editor (TipTap, docs/product.md §5.9). It writes only what the
 * server's sanitiser and the e-mail template accept (worker/services/newsletter/sanitize-html.ts):
 * paragraphs, h2/h3, bold, italic, underline, strike, lists, quotes, links, rules and line breaks;
 * no code blocks, no images (an image URL goes in HTML mode). The admin's editor page loads this
 * module lazily (web/pages/admin-newsletter-editor.tsx), so no other page downloads TipTap.
 */
export default function RichTextEditor({ value, onChange, labelledBy }: { value: string; onChange: (html: string) => void; labelledBy: string }) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        code: false,
        codeBlock: false,
        // No empty paragraph kept at the end: it would add a blank line to every issue.
        trailingNode: false,
        link: { openOnClick: false, autolink: true, protocols: ['mailto', 'tel'], HTMLAttributes: { rel: null, target: null, class: null } },
      }),
    ],
    content: value,
    immediatelyRender: true,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelledBy,
        class:
          'min-h-72 rounded-b-md border border-t-0 border-slate-300 bg-white px-4 py-3 text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 ' +
          '[&_a]:text-brand-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-4 [&_blockquote]:text-slate-700 ' +
          '[&_h2]:mt-4 [&_h2]:text-2xl [&_h2]:font-bold [&_h3]:mt-3 [&_h3]:text-xl [&_h3]:font-semibold [&_hr]:my-4 [&_ol]:list-decimal [&_ol]:pl-6 ' +
          '[&_p]:my-2 [&_ul]:list-disc [&_ul]:pl-6',
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });

  // Content replaced from outside (the AI draft, the template, HTML mode): the editor takes it.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if (current !== value) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  return (
    <div>
      <Toolbar editor={editor} />
      <EditorContent editor={editor} />
    </div>
  );
}


function Toolbar({ editor }: { editor: Editor }) {
  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      blockquote: e.isActive('blockquote'),
      link: e.isActive('link'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();

  function editLink() {
    const previous = (editor.getAttributes('link').href as string | undefined) ?? '';
    const href = window.prompt('Link address (https://, mailto: or tel:)', previous || 'https://');
    if (href === null) return;
    if (href.trim() === '' || href.trim() === 'https://') chain().extendMarkRange('link').unsetLink().run();
    else chain().extendMarkRange('link').setLink({ href: href.trim() }).run();
  }

  const toggles: { label: string; icon: LucideIcon; pressed: boolean; run: () => void }[] = [
    { label: 'Bold', icon: Bold, pressed: active.bold, run: () => chain().toggleBold().run() },
    { label: 'Italic', icon: Italic, pressed: active.italic, run: () => chain().toggleItalic().run() },
    { label: 'Underline', icon: Underline, pressed: active.underline, run: () => chain().toggleUnderline().run() },
    { label: 'Heading', icon: Heading2, pressed: active.h2, run: () => chain().toggleHeading({ level: 2 }).run() },
    { label: 'Subheading', icon: Heading3, pressed: active.h3, run: () => chain().toggleHeading({ level: 3 }).run() },
    { label: 'Bulleted list', icon: List, pressed: active.bulletList, run: () => chain().toggleBulletList().run() },
    { label: 'Numbered list', icon: ListOrdered, pressed: active.orderedList, run: () => chain().toggleOrderedList().run() },
    { label: 'Quote', icon: Quote, pressed: active.blockquote, run: () => chain().toggleBlockquote().run() },
    { label: 'Link', icon: Link2, pressed: active.link, run: editLink },
  ];

  return (
    <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-1 rounded-t-md border border-slate-300 bg-slate-50 p-1">
      {toggles.map(({ label, icon: Icon, pressed, run }) => (
        <ToolButton key={label} label={label} pressed={pressed} onClick={run}>
          <Icon className="h-4 w-4" aria-hidden="true" />
        </ToolButton>
      ))}
      <span className="mx-1 w-px self-stretch bg-slate-300" aria-hidden="true" />
      <ToolButton label="Undo" disabled={!active.canUndo} onClick={() => chain().undo().run()}>
        <Undo2 className="h-4 w-4" aria-hidden="true" />
      </ToolButton>
      <ToolButton label="Redo" disabled={!active.canRedo} onClick={() => chain().redo().run()}>
        <Redo2 className="h-4 w-4" aria-hidden="true" />
      </ToolButton>
    </div>
  );
}

function ToolButton({ label, pressed, disabled, onClick, children }: { label: string; pressed?: boolean; disabled?: boolean; onClick: () => void; children: React.ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      className="inline-flex h-9 w-9 items-center justify-center rounded text-slate-700 hover:bg-slate-200 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 disabled:opacity-40 aria-pressed:bg-brand-100 aria-pressed:text-brand-800"
    >
      {children}
    </button>
  );
}

