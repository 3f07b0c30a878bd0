/** Template dialogs: preview, edit (rich text), and the follow-up sequence (B §2.8, §4, §5). */
import { useEffect, useState } from "react";
import { Button } from "../../components/ui/button";
import { HtmlFrame } from "../../components/ui/html-frame";
import { Dialog } from "../../components/ui/dialog";
import { SelectField, TextField } from "../../components/ui/field";
import { toast } from "@outreach/client/toast-store";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson, serverMessage } from "@outreach/client/request";
import { TEMPLATES_KEY, type FollowUp, type Template } from "./api";
import { BodyEditor as RichTextEditor } from "./BodyEditor";
import { VariantsEditor } from "./VariantsEditor";
import type { FollowUpTiming, Preview } from "@outreach/client/api/types";

export const OBJECTIVES = ["Lead Generation", "Marketing Pitch", "Partnership Proposal", "Custom"];
export const TONES = ["professional", "friendly", "casual"];
export const FOLLOW_UP_INVALID = "Please fill in all fields for each follow-up email and ensure delay days are between 1-7";

/** A template body, as written or rendered for a business, in the same sandboxed frame as messages: a preview
 * carries a business's data, which must never run in the app. */
export function TemplateBody({ html, className = "h-48" }: { html: string; className?: string }) {
  return <HtmlFrame title="Template body" html={html} className={className} />;
}

/** The template as written, and rendered for a business the user describes (placeholders, fallbacks, spintax). */
export function PreviewDialog({ template, onClose }: { template: Template; onClose: () => void }) {
  const [business, setBusiness] = useState({ businessName: "", city: "", website: "", category: "" });
  const [rendered, setRendered] = useState<Preview | null>(null);
  const shown = rendered ?? { subject: template.subject, body: template.body, missing: [] };
  const rendering = useApiMutation({
    mutationFn: () => requestJson<Preview>("POST", `/api/email-templates/${template.id}/preview`, business),
    failure: { title: "Preview failed", description: "Please try again." },
    onSuccess: setRendered,
  });
  return (
    <Dialog title={`Preview: ${template.name}`} onClose={onClose} wide>
      <form
        aria-label="Preview for a business"
        className="mb-4 grid gap-2 sm:grid-cols-4"
        onSubmit={(event) => {
          event.preventDefault();
          rendering.mutate();
        }}
      >
        <TextField label="Business name" value={business.businessName} onChange={(e) => setBusiness({ ...business, businessName: e.target.value })} />
        <TextField label="City" value={business.city} onChange={(e) => setBusiness({ ...business, city: e.target.value })} />
        <TextField label="Website" value={business.website} onChange={(e) => setBusiness({ ...business, website: e.target.value })} />
        <TextField label="Category" value={business.category} onChange={(e) => setBusiness({ ...business, category: e.target.value })} />
        <Button type="submit" variant="outline" className="sm:col-span-4">Preview for this business</Button>
      </form>
      <p className="mb-2 text-sm" data-testid="preview-subject">
        <strong>Subject:</strong> {shown.subject}
      </p>
      <div className="rounded border border-slate-200 p-4">
        <TemplateBody html={shown.body} className="h-72" />
      </div>
      {shown.missing.length ? (
        <p role="status" className="mt-2 text-sm text-amber-800">No value for: {shown.missing.join(", ")}. Add a fallback, e.g. {"{{city | your area}}"}.</p>
      ) : null}
    </Dialog>
  );
}

export function EditTemplateDialog({ template, onClose }: { template: Template; onClose: () => void }) {
  const [form, setForm] = useState({
    name: template.name,
    subject: template.subject,
    body: template.body,
    objective: template.objective,
    tone: template.tone,
    variants: template.variants,
  });
  const [variantProblem, setVariantProblem] = useState<string | null>(null);
  // A variable the server does not know is shown under the field that holds it.
  const [variableError, setVariableError] = useState<{ field: "subject" | "body"; message: string } | null>(null);
  const saving = useApiMutation({
    mutationFn: () => requestJson("PUT", `/api/email-templates/${template.id}`, form),
    success: { title: "Template updated" },
    failure: (failure) => ({ title: "Update failed", description: `Failed to update template: ${serverMessage(failure) ?? "Please try again."}` }),
    invalidates: [TEMPLATES_KEY],
    onSuccess: onClose,
    onError: (failure) => {
      const message = serverMessage(failure) ?? "";
      if (message.startsWith("variants")) {
        setVariantProblem(message);
        return;
      }
      setVariantProblem(null);
      const field = unknownVariableField(message, form.subject);
      setVariableError(field ? { field, message } : null);
    },
  });
  const fieldError = (field: "subject" | "body") => (variableError?.field === field ? variableError.message : null);
  return (
    <Dialog title="Edit template" onClose={onClose} wide>
      <div className="space-y-3">
        <TextField label="Template name" value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        <TextField label="Subject" value={form.subject} error={fieldError("subject")} onChange={(e) => setForm({ ...form, subject: e.target.value })} />
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField label="Objective" value={form.objective} onChange={(e) => setForm({ ...form, objective: e.target.value })} options={OBJECTIVES.map((o) => ({ value: o, label: o }))} />
          <SelectField label="Tone" value={form.tone} onChange={(e) => setForm({ ...form, tone: e.target.value })} options={TONES.map((t) => ({ value: t, label: t }))} />
        </div>
        <div>
          <span className="text-sm font-medium">Body</span>
          <RichTextEditor label="Template body" value={form.body} onChange={(body) => setForm((current) => ({ ...current, body }))} />
          {fieldError("body") ? (
            <p role="alert" className="mt-1 text-sm text-red-600">
              {fieldError("body")}
            </p>
          ) : null}
          <p className="mt-1 text-xs text-slate-500">Personalise with [business name], {"{{businessName}}"}, {"{{city | fallback}}"}, {"{{website}}"}, {"{{category}}"}, {"{{icebreaker | fallback}}"} (a first line from their website) and {"{Hi|Hello}"}.</p>
        </div>
        <VariantsEditor variants={form.variants} onChange={(variants) => setForm((current) => ({ ...current, variants }))} error={variantProblem} />
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>Cancel</Button>
          <Button onClick={() => saving.mutate()} disabled={saving.isPending}>Save Changes</Button>
        </div>
      </div>
    </Dialog>
  );
}

/** What each follow-up lacks, by field and named by its number (the spec's message stays the toast). */
export function followUpErrors(rows: Pick<FollowUp, "subject" | "body" | "delayDays">[]): { subject?: string; delayDays?: string; body?: string }[] {
  return rows.map((item, index) => {
    const n = index + 1;
    const errors: { subject?: string; delayDays?: string; body?: string } = {};
    if (!item.subject.trim()) errors.subject = `Follow-up ${n} needs a subject`;
    if (!Number.isInteger(item.delayDays) || item.delayDays < 1 || item.delayDays > 7) errors.delayDays = `Follow-up ${n}: delay days must be between 1 and 7`;
    if (!item.body.replace(/<[^>]*>/g, "").trim()) errors.body = `Follow-up ${n} needs a body`;
    return errors;
  });
}

/** The field an 'Unknown variable {{x}}' refusal is about: the subject when it holds the variable, else the body. */
export function unknownVariableField(message: string, subject: string): "subject" | "body" | null {
  const variable = /^Unknown variable (\{\{[^}]*\}\})/.exec(message)?.[1];
  if (!variable) return null;
  return subject.includes(variable) ? "subject" : "body";
}

/** Each row keeps a stable key, so removing one does not hand its editor to the next. */
type Row = FollowUp & { key: string };
const emptyFollowUp = (): Row => ({ subject: "", body: "", delayDays: 3, variants: [], key: crypto.randomUUID() });
const withKeys = (list: FollowUp[]): Row[] => list.map((item) => ({ ...item, key: String(item.id ?? crypto.randomUUID()) }));

export function FollowUpDialog({ template, onClose }: { template: Template; onClose: () => void }) {
  const [followUps, setFollowUps] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<ReturnType<typeof followUpErrors>>([]);
  const [timing, setTiming] = useState<FollowUpTiming>(template.followUpTiming);
  const saving = useApiMutation({
    mutationFn: async (rows: Row[]) => {
      const saved = await requestJson<FollowUp[]>(
        "PUT",
        `/api/follow-up-templates/sequence/${template.id}`,
        rows.map(({ subject, body, delayDays, variants }) => ({ subject, body, delayDays, variants, tone: "professional" })),
      );
      if (timing !== template.followUpTiming) await requestJson("PUT", `/api/email-templates/${template.id}/follow-up-timing`, { followUpTiming: timing });
      return saved;
    },
    invalidates: [TEMPLATES_KEY],
    success: { title: "Follow-up emails saved" },
    failure: (failure) => ({ title: "Error", description: `Failed to save follow-up emails: ${serverMessage(failure) ?? "Please try again."}` }),
    onSuccess: (saved) => {
      setFollowUps(withKeys(saved));
      onClose();
    },
  });

  useEffect(() => {
    requestJson<FollowUp[]>("GET", `/api/follow-up-templates/${template.id}`)
      .then((list) => setFollowUps(list.length ? withKeys(list) : [emptyFollowUp()]))
      // If the sequence cannot be fetched, start from one empty follow-up three days after the open (B §4).
      .catch(() => setFollowUps([emptyFollowUp()]));
  }, [template.id]);

  if (!followUps) return null;
  const change = (index: number, patch: Partial<FollowUp>) => setFollowUps(followUps.map((item, i) => (i === index ? { ...item, ...patch } : item)));

  const save = () => {
    const problems = followUpErrors(followUps);
    setFieldErrors(problems);
    if (problems.some((problem) => Object.keys(problem).length > 0)) {
      setError(FOLLOW_UP_INVALID);
      toast({ title: "Validation Error", description: FOLLOW_UP_INVALID, variant: "destructive" });
      return;
    }
    setError(null);
    saving.mutate(followUps);
  };

  return (
    <Dialog title={`Follow-ups: ${template.name}`} onClose={onClose} wide>
      <p className="mb-2 text-sm text-slate-600">Up to 4 follow-ups, each sent 1 to 7 days after the previous email. A reply stops them.</p>
      <fieldset className="mb-3 space-y-1 text-sm" aria-label="When follow-ups are sent">
        <label className="flex items-center gap-2">
          <input type="radio" name="follow-up-timing" checked={timing === "after_open"} onChange={() => setTiming("after_open")} />
          Days after the previous email was opened (recommended)
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="follow-up-timing" checked={timing === "after_send"} onChange={() => setTiming("after_send")} />
          Days after the previous email was sent, when there is no reply (for prospects whose opens are not seen)
        </label>
      </fieldset>
      <ol className="space-y-4">
        {followUps.map((item, index) => (
          <li key={item.key} className="rounded-md border border-slate-200 p-3" aria-label={`Follow-up Email #${index + 1}`}>
            <div className="mb-2 flex items-center justify-between">
              <h3 className="font-medium">Follow-up Email #{index + 1}</h3>
              {followUps.length > 1 ? (
                <Button
                  variant="ghost"
                  onClick={() => {
                    setFollowUps(followUps.filter((_, i) => i !== index));
                    setFieldErrors([]);
                  }}
                >
                  Remove
                </Button>
              ) : null}
            </div>
            <div className="space-y-2">
              <TextField
                label={`Subject of follow-up ${index + 1}`}
                value={item.subject}
                error={fieldErrors[index]?.subject}
                onChange={(e) => change(index, { subject: e.target.value })}
              />
              <TextField
                label={`Delay days of follow-up ${index + 1}`}
                type="number"
                min={1}
                max={7}
                value={item.delayDays}
                error={fieldErrors[index]?.delayDays}
                onChange={(e) => change(index, { delayDays: Number(e.target.value) })}
              />
              <div>
                <span className="text-sm font-medium">Body</span>
                <RichTextEditor label={`Body of follow-up ${index + 1}`} value={item.body} onChange={(body) => change(index, { body })} />
                {fieldErrors[index]?.body ? (
                  <p role="alert" className="mt-1 text-sm text-red-600">
                    {fieldErrors[index].body}
                  </p>
                ) : null}
              </div>
              <VariantsEditor variants={item.variants} onChange={(variants) => change(index, { variants })} error={null} />
            </div>
          </li>
        ))}
      </ol>
      {error ? <p role="alert" className="mt-3 text-sm text-red-600">{error}</p> : null}
      <div className="mt-4 flex justify-between gap-2">
        <Button variant="outline" disabled={followUps.length >= 4} onClick={() => setFollowUps([...followUps, emptyFollowUp()])}>
          Add Follow-up
        </Button>
        <Button onClick={save} disabled={saving.isPending}>
          Save Follow-ups
        </Button>
      </div>
    </Dialog>
  );
}
