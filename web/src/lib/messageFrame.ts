/**
 * Stored email HTML made safe to show: a Content-Security-Policy in the document itself keeps the frame from
 * loading anything from the network. Viewing a message then never fetches its open pixel (which would count an
 * open) nor a prospect's own trackers in a reply; inline styles and embedded data images still show.
 */
const POLICY = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`;

export function offlineDocument(html: string): string {
  const head = /<head[^>]*>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + POLICY + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  if (doctype) return doctype[0] + POLICY + html.slice(doctype[0].length);
  return POLICY + html;
}
