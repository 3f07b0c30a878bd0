/** The template body editor (TipTap): bold, italic, link and bullet list, with Ctrl+B and Ctrl+I, and a picker that
 * inserts a personalisation variable at the cursor. A new value from outside (a draft written again) replaces the
 * content. */
import { useEffect, useRef } from "react";
import { useEditor, EditorContent } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import Link from "@tiptap/extension-link";

/** The personalisation a template may use (the server refuses any other variable). */
export const VARIABLES = [
  { text: "{{businessName | there}}", label: "Business name" },
  { text: "{{city | your area}}", label: "City" },
  { text: "{{website}}", label: "Website" },
  { text: "{{category}}", label: "Category" },
  { text: "{{icebreaker | Hope the week is going well.}}", label: "Icebreaker (first line from their website)" },
];

export function RichTextEditor({ value, onChange, label }: { value: string; onChange: (html: string) => void; label: string }) {
  // The HTML the editor holds as far as the parent knows: what it was given or last reported.
  const known = useRef(value);
  const editor = useEditor({
    extensions: [StarterKit.configure({ heading: false, codeBlock: false, blockquote: false, horizontalRule: false, link: false }), Link.configure({ openOnClick: false, autolink: true })],
    content: value,
    editorProps: { attributes: { "aria-label": label, role: "textbox", "aria-multiline": "true", class: "min-h-40 rounded-b-md border border-slate-300 p-3 text-sm focus:outline-none [&_a]:text-brand [&_a]:underline [&_ul]:list-disc [&_ul]:pl-5" } },
    onUpdate: ({ editor: current }) => {
      known.current = current.getHTML();
      onChange(known.current);
    },
  });
  useEffect(() => {
    if (!editor || editor.isDestroyed || value === known.current) return;
    known.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);
  if (!editor) return null;
  const tool = (name: string, active: boolean, action: () => void, shortcut?: string) => (
    <button
      type="button"
      aria-pressed={active}
      title={shortcut ? `${name} (${shortcut})` : name}
      onClick={action}
      className={`rounded px-2 py-1 text-sm ${active ? "bg-slate-200 font-semibold" : "hover:bg-slate-100"}`}
    >
      {name}
    </button>
  );
  const setLink = () => {
    const previous = editor.getAttributes("link").href as string | undefined;
    const url = window.prompt("Link address", previous ?? "https://");
    if (url === null) return;
    if (url.trim() === "") editor.chain().focus().unsetLink().run();
    else editor.chain().focus().extendMarkRange("link").setLink({ href: url.trim() }).run();
  };
  return (
    <div>
      <div role="toolbar" aria-label="Formatting" className="flex flex-wrap gap-1 rounded-t-md border border-b-0 border-slate-300 bg-slate-50 p-1">
        {tool("Bold", editor.isActive("bold"), () => editor.chain().focus().toggleBold().run(), "Ctrl+B")}
        {tool("Italic", editor.isActive("italic"), () => editor.chain().focus().toggleItalic().run(), "Ctrl+I")}
        {tool("Link", editor.isActive("link"), setLink)}
        {tool("Bullet list", editor.isActive("bulletList"), () => editor.chain().focus().toggleBulletList().run())}
        <select
          aria-label={`Insert a variable into ${label}`}
          className="ml-auto rounded border border-slate-300 bg-white px-1 text-sm"
          value=""
          onChange={(event) => {
            if (event.target.value) editor.chain().focus().insertContent(event.target.value).run();
          }}
        >
          <option value="">Insert variable...</option>
          {VARIABLES.map((variable) => (
            <option key={variable.text} value={variable.text}>
              {variable.label}
            </option>
          ))}
        </select>
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}
