/** Step 4 (A §2): choose a template from expandable cards with preview, edit and delete, or create one with the
 * AI composer. Also the Email Templates tab (B §2.8; A §5's standalone 'Choose Email Template / Launch Campaign'
 * screen): a card grid with view, edit, follow-up and test-email dialogs, and the composer for a new template that
 * belongs to no campaign. */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { percentText } from "../../lib/format";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson, serverMessage } from "@outreach/client/request";
import { TEMPLATES_KEY, useTemplates, type Template } from "./api";
import { EditTemplateDialog, FollowUpDialog, PreviewDialog, TemplateBody } from "./TemplateDialogs";
import { TestEmailDialog } from "./TestEmailDialog";
import { Composer } from "./Composer";

export const DELETE_TEMPLATE_CONFIRM = "Are you sure you want to delete this template?";

type Open = { kind: "preview" | "edit" | "followUps"; template: Template } | null;

/** A template made outside a campaign is written from its brief alone. */
const NO_EDUCATION = { text: "", files: [] };

/** Delete with the spec's confirmation (B §2.3): `ask` opens it, `dialog` is the confirmation to render. */
function useDeleteTemplate() {
  const [asked, setAsked] = useState<Template | null>(null);
  const deleting = useApiMutation({
    mutationFn: (template: Template) => requestJson("DELETE", `/api/email-templates/${template.id}`),
    success: { title: "Template deleted" },
    failure: (failure) => ({ title: "Delete failed", description: `Failed to delete template: ${serverMessage(failure) ?? "Please try again."}` }),
    invalidates: [TEMPLATES_KEY],
    onSuccess: () => setAsked(null),
  });
  const dialog = asked ? (
    <ConfirmDialog
      title={`Delete ${asked.name}`}
      message={DELETE_TEMPLATE_CONFIRM}
      confirmLabel="Delete"
      busy={deleting.isPending}
      onConfirm={() => deleting.mutate(asked)}
      onCancel={() => setAsked(null)}
    />
  ) : null;
  return { ask: setAsked, dialog };
}

function Dialogs({ open, close }: { open: Open; close: () => void }) {
  if (!open) return null;
  if (open.kind === "preview") return <PreviewDialog template={open.template} onClose={close} />;
  if (open.kind === "edit") return <EditTemplateDialog template={open.template} onClose={close} />;
  return <FollowUpDialog template={open.template} onClose={close} />;
}

export function TemplateChooser({ selectedId, onChoose, onCreate }: { selectedId: number | null; onChoose: (template: Template) => void; onCreate: () => void }) {
  const templates = useTemplates();
  const [expanded, setExpanded] = useState<number | null>(null);
  const [open, setOpen] = useState<Open>(null);
  const remove = useDeleteTemplate();
  const list = templates.data ?? [];
  return (
    <div className="space-y-3">
      <ul className="space-y-2" aria-label="Templates">
        {list.map((template) => (
          <li key={template.id} className={`rounded-md border p-3 ${selectedId === template.id ? "border-brand ring-1 ring-brand" : "border-slate-200"}`}>
            <div className="flex flex-wrap items-center justify-between gap-2">
              <button className="text-left font-medium" aria-expanded={expanded === template.id} onClick={() => setExpanded(expanded === template.id ? null : template.id)}>
                {template.name} <span className="text-sm font-normal text-slate-500">· {template.subject}</span>
              </button>
              <div className="flex flex-wrap gap-1">
                <Button variant="ghost" onClick={() => setOpen({ kind: "preview", template })}>Preview</Button>
                <Button variant="ghost" onClick={() => setOpen({ kind: "edit", template })}>Edit</Button>
                <Button variant="ghost" onClick={() => remove.ask(template)}>Delete</Button>
                <Button variant={selectedId === template.id ? "secondary" : "primary"} onClick={() => onChoose(template)}>
                  {selectedId === template.id ? "Chosen" : "Use This Template"}
                </Button>
              </div>
            </div>
            {expanded === template.id ? (
              <div className="mt-2 border-t border-slate-100 pt-2">
                <TemplateBody html={template.body} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <Button variant="outline" onClick={onCreate}>Create a new template</Button>
      <Dialogs open={open} close={() => setOpen(null)} />
      {remove.dialog}
    </div>
  );
}

export function TemplatesTab() {
  const templates = useTemplates();
  const [open, setOpen] = useState<Open>(null);
  // The test-email dialog: for a template, or (null) for a custom subject and body.
  const [testing, setTesting] = useState<{ templateId: number | null } | null>(null);
  const remove = useDeleteTemplate();
  const list = templates.data ?? [];
  // 'Create New Template' composes here, for no campaign: it once opened the builder of the selected campaign,
  // where saving made the new template that campaign's, even a running one's (issue 83.2).
  const [creating, setCreating] = useState(false);
  if (creating) {
    return (
      <section aria-label="Create New Template" className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-xl font-semibold">Create New Template</h2>
          <Button variant="outline" onClick={() => setCreating(false)}>Back to Templates</Button>
        </div>
        <Composer campaignId={null} businessIds={[]} education={NO_EDUCATION} onSaved={() => setCreating(false)} />
      </section>
    );
  }
  return (
    <section aria-label="Email Templates" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-xl font-semibold">Choose Email Template / Launch Campaign</h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setTesting({ templateId: null })}>Send Test Email</Button>
          <Button onClick={() => setCreating(true)}>Create New Template</Button>
        </div>
      </div>
      {list.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-6 text-slate-600">No templates yet. Create one with Create New Template, or in step 4 of the campaign builder.</p>
      ) : (
        <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
          {list.map((template) => (
            <article key={template.id} aria-label={template.name} className="flex flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <h3 className="font-semibold">{template.name}</h3>
              <p className="text-sm text-slate-600">{template.subject}</p>
              <p className="mt-1 text-xs text-slate-500">
                {template.objective} · {template.tone} · {template.emailsSent} sent · about {percentText(template.estimatedOpenRate)} opened, {percentText(template.responseRate)} replied
              </p>
              <div className="mt-3 flex flex-wrap gap-1">
                <Button variant="ghost" onClick={() => setOpen({ kind: "preview", template })}>View</Button>
                <Button variant="ghost" onClick={() => setOpen({ kind: "edit", template })}>Edit</Button>
                <Button variant="ghost" onClick={() => setOpen({ kind: "followUps", template })}>Follow-ups</Button>
                <Button variant="ghost" onClick={() => setTesting({ templateId: template.id })}>Send Test</Button>
                <Button variant="ghost" onClick={() => remove.ask(template)}>Delete</Button>
              </div>
            </article>
          ))}
        </div>
      )}
      <Dialogs open={open} close={() => setOpen(null)} />
      {testing ? <TestEmailDialog templates={list} templateId={testing.templateId} onClose={() => setTesting(null)} /> : null}
      {remove.dialog}
    </section>
  );
}
