/** HTML that is not the app's own (stored messages, replies, template bodies rendered with a business's data)
 * shown in a sandboxed frame: no scripts, no access to the app, nothing fetched from the network. */
import { offlineDocument } from "../../lib/messageFrame";

const READABLE = "<style>body{font-family:system-ui,sans-serif;font-size:14px;line-height:1.5;margin:8px}a{color:#2563eb}</style>";

export function HtmlFrame({ html, title, className = "h-80" }: { html: string; title: string; className?: string }) {
  return <iframe title={title} sandbox="" className={`w-full rounded border ${className}`} srcDoc={offlineDocument(READABLE + html)} />;
}
