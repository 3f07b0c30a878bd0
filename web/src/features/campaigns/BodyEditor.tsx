/** The rich-text editor, loaded when a screen first shows it (TipTap and ProseMirror are most of the dashboard's
 * weight), for the composer and the template dialogs. */
import { lazy, Suspense, type ComponentProps } from "react";

const LazyEditor = lazy(() => import("./RichTextEditor").then((module) => ({ default: module.RichTextEditor })));

export function BodyEditor(props: ComponentProps<typeof LazyEditor>) {
  return (
    <Suspense fallback={<p className="text-sm text-slate-600">Loading the editor...</p>}>
      <LazyEditor {...props} />
    </Suspense>
  );
}
