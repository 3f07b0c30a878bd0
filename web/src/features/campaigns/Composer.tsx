/** The AI email composer (A §2 step 4, §4 AI composer, §5 Template composer): the brief on the left, the
 * generated email on the right, edited in the rich-text editor (with its variable picker) and previewed as one of
 * the campaign's businesses would receive it, with Adjustments, and the save-template dialog. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { SelectField, TextArea, TextField } from "../../components/ui/field";
import { percentText } from "../../lib/format";
import { TEMPLATES_KEY, type Template } from "./api";
import { generationError, templateSaveError } from "./messages";
import { OBJECTIVES, TONES } from "./TemplateDialogs";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import type { Business, GeneratedEmail, Preview } from "@outreach/client/api/types";
import { BodyEditor } from "./BodyEditor";
import { TemplateBody } from "./TemplateDialogs";
import { IcebreakerPanel } from "./IcebreakerPanel";

const EMPTY = {
  templateName: "",
  objective: "Lead Generation",
  serviceDescription: "",
  valueProposition: "",
  yourAsk: "",
  promotionalUrl: "",
  tone: "professional",
  emailSignature: "",
};

const REQUIRED: [keyof typeof EMPTY, string][] = [
  ["templateName", "Template name is required"],
  ["objective", "Objective is required"],
  ["serviceDescription", "Service description is required"],
  ["valueProposition", "Value proposition is required"],
  ["yourAsk", "Your ask is required"],
  ["emailSignature", "Email signature is required"],
];

export function validateBrief(form: typeof EMPTY): Partial<Record<keyof typeof EMPTY, string>> {
  const errors: Partial<Record<keyof typeof EMPTY, string>> = {};
  for (const [field, message] of REQUIRED) if (!form[field].trim()) errors[field] = message;
  const url = form.promotionalUrl.trim();
  if (url) {
    try {
      const parsed = new URL(url);
      if (!["http:", "https:"].includes(parsed.protocol)) errors.promotionalUrl = "Please enter a valid URL";
    } catch {
      errors.promotionalUrl = "Please enter a valid URL";
    }
  }
  return errors;
}

export function Composer({
  campaignId,
  businessIds,
  education,
  onSaved,
}: {
  campaignId: number | null;
  businessIds: number[];
  education: { text: string; files: string[] };
  onSaved: (template: Template) => void;
}) {
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<ReturnType<typeof validateBrief>>({});
  const [generated, setGenerated] = useState<GeneratedEmail | null>(null);
  const [adjustments, setAdjustments] = useState("");
  const [saveOpen, setSaveOpen] = useState(false);
  const [saveName, setSaveName] = useState("");
  // A second A/B variant drafted from the generated email (issue 81): saved with the template as variant B.
  const [variantB, setVariantB] = useState<{ subject: string; body: string } | null>(null);

  const field = (name: keyof typeof EMPTY) => ({
    value: form[name],
    error: errors[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });

  const generating = useApiMutation({
    mutationFn: () => {
      const previous = generated && adjustments.trim() ? { subject: generated.subject, body: generated.body } : undefined;
      return requestJson<GeneratedEmail>("POST", "/api/emails/generate", {
        ...form,
        adjustments: previous ? adjustments : "",
        aiEducationText: education.text,
        aiEducationFiles: education.files,
        campaignId,
        previous,
      });
    },
    failure: generationError,
    onSuccess: setGenerated,
  });
  const drafting = useApiMutation({
    mutationFn: (draft: GeneratedEmail) =>
      requestJson<GeneratedEmail>("POST", "/api/emails/generate", {
        ...form,
        adjustments: "",
        aiEducationText: education.text,
        aiEducationFiles: education.files,
        campaignId,
        previous: { subject: draft.subject, body: draft.body },
        secondVariant: true,
      }),
    failure: generationError,
    onSuccess: (second) => setVariantB({ subject: second.subject, body: second.body }),
  });
  const busy = generating.isPending || drafting.isPending;

  const generate = () => {
    const found = validateBrief(form);
    setErrors(found);
    if (!Object.keys(found).length) generating.mutate();
  };

  const saving = useApiMutation({
    mutationFn: (draft: GeneratedEmail) =>
      requestJson<Template>("POST", "/api/email-templates", {
        name: saveName.trim(),
        subject: draft.subject,
        body: draft.body,
        objective: form.objective,
        tone: form.tone,
        emailSignature: form.emailSignature,
        variants: variantB ? [variantB] : [],
      }),
    success: (template) => ({ title: "Template saved", description: template.name }),
    failure: templateSaveError,
    invalidates: [TEMPLATES_KEY],
    onSuccess: (template) => {
      setAdjustments("");
      setVariantB(null);
      setSaveName("");
      setSaveOpen(false);
      onSaved(template);
    },
  });

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <form
        aria-label="Email brief"
        className="space-y-3"
        onSubmit={(event) => {
          event.preventDefault();
          generate();
        }}
      >
        <TextField label="Template name" {...field("templateName")} />
        <SelectField label="Objective" value={form.objective} onChange={(e) => setForm({ ...form, objective: e.target.value })} options={OBJECTIVES.map((o) => ({ value: o, label: o }))} />
        <TextArea label="Service description" rows={2} {...field("serviceDescription")} />
        <TextArea label="Value proposition" rows={2} {...field("valueProposition")} />
        <TextField label="Your ask" {...field("yourAsk")} />
        <TextField label="Promotional URL (optional)" {...field("promotionalUrl")} />
        <SelectField label="Tone" value={form.tone} onChange={(e) => setForm({ ...form, tone: e.target.value })} options={TONES.map((t) => ({ value: t, label: t }))} />
        <TextArea label="Email signature" rows={3} {...field("emailSignature")} />
        <Button type="submit" disabled={busy}>
          {busy ? "Generating..." : generated ? "Generate Again" : "Generate Email"}
        </Button>
      </form>
      <section aria-label="Generated email" className="rounded-lg border border-slate-200 bg-slate-50 p-4">
        {generated ? (
          <div className="space-y-3">
            <p className="text-xs text-slate-600" data-testid="writer">
              {generated.writer === "offline"
                ? "Drafted by the offline writer (no AI model is configured): it uses only what you entered."
                : `Written by ${generated.writer}.`}
            </p>
            {generated.notes.length ? <p className="text-xs text-slate-600">Adjustments: {generated.notes.join("; ")}</p> : null}
            <TextField label="Subject" value={generated.subject} onChange={(e) => setGenerated({ ...generated, subject: e.target.value })} />
            <div>
              <span className="text-sm font-medium">Body</span>
              <BodyEditor label="Email body" value={generated.body} onChange={(body) => setGenerated((current) => current && { ...current, body })} />
            </div>
            <BusinessPreview subject={generated.subject} body={generated.body} businessIds={businessIds} />
            <p className="text-sm" data-testid="rates">
              Estimated open rate {percentText(generated.estimatedOpenRate)} · reply rate {percentText(generated.estimatedReplyRate)}{" "}
              <span className="text-slate-500">
                ({generated.ratesSource === "your_results" ? `from your last ${generated.ratesSends} sends with this objective and tone` : "baseline estimate: fewer than 20 of your sends to learn from"})
              </span>
            </p>
            <TextArea label="Adjustments" rows={2} placeholder="e.g. shorter, more friendly, no link" value={adjustments} onChange={(e) => setAdjustments(e.target.value)} />
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" disabled={busy || !adjustments.trim()} onClick={generate}>
                Apply Adjustments
              </Button>
              <Button variant="outline" disabled={busy} onClick={() => drafting.mutate(generated)}>
                {variantB ? "Draft Variant B Again" : "Draft Variant B"}
              </Button>
              <Button onClick={() => { setSaveName(form.templateName); setSaveOpen(true); }}>Save as Template</Button>
            </div>
            {variantB ? (
              <div className="space-y-2 rounded-md border border-slate-200 p-3" data-testid="variant-b">
                <p className="text-sm font-semibold">Variant B (A/B test: recipients are split evenly, the best on positive replies wins)</p>
                <TextField label="Subject of variant B" value={variantB.subject} onChange={(e) => setVariantB({ ...variantB, subject: e.target.value })} />
                <BodyEditor label="Body of variant B" value={variantB.body} onChange={(body) => setVariantB((current) => current && { ...current, body })} />
                <Button variant="outline" onClick={() => setVariantB(null)}>Remove Variant B</Button>
              </div>
            ) : null}
          </div>
        ) : (
          <p className="text-sm text-slate-600">Fill in the brief and generate: your email appears here.</p>
        )}
      </section>
      {saveOpen && generated ? (
        <Dialog title="Save template" onClose={() => setSaveOpen(false)}>
          <div className="space-y-3">
            <TextField label="Template name" value={saveName} onChange={(e) => setSaveName(e.target.value)} />
            <div className="rounded border border-slate-200 p-3 text-sm" data-testid="save-preview">
              <p className="font-medium">{generated.subject}</p>
              <p className="text-slate-600">{previewText(generated.body)}</p>
            </div>
            <div className="flex justify-end gap-2">
              <Button variant="outline" onClick={() => setSaveOpen(false)}>Cancel</Button>
              <Button disabled={!saveName.trim() || saving.isPending} onClick={() => generated && saving.mutate(generated)}>Save</Button>
            </div>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}

/** The draft as one of the campaign's chosen businesses would receive it (its variables filled in), with the
 * business's icebreaker and its sources when the draft uses one. */
function BusinessPreview({ subject, body, businessIds }: { subject: string; body: string; businessIds: number[] }) {
  const owned = useQuery<Business[] | null>({ queryKey: ["/api/businesses"], enabled: businessIds.length > 0 });
  const chosen = new Set(businessIds);
  const businesses = (owned.data ?? []).filter((business) => chosen.has(business.id));
  const [businessId, setBusinessId] = useState("");
  const [shown, setShown] = useState<Preview | null>(null);
  const [previewed, setPreviewed] = useState<number | null>(null);
  const previewing = useApiMutation({
    mutationFn: (id: number) => requestJson<Preview>("POST", "/api/email-templates/preview", { subject, body, businessId: id }),
    failure: { title: "Preview failed", description: "Please try again." },
    onSuccess: (preview, id) => {
      setShown(preview);
      setPreviewed(id);
    },
  });
  if (businesses.length === 0) return null;
  const pick = businessId || String(businesses[0].id);
  return (
    <div className="space-y-2 rounded-md border border-slate-200 bg-white p-3" data-testid="business-preview">
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-48 flex-1">
          <SelectField
            label="Preview for"
            value={pick}
            onChange={(event) => setBusinessId(event.target.value)}
            options={businesses.map((business) => ({ value: String(business.id), label: business.name }))}
          />
        </div>
        <Button variant="outline" disabled={previewing.isPending} onClick={() => previewing.mutate(Number(pick))}>
          Show Preview
        </Button>
      </div>
      {shown ? (
        <>
          <p className="text-sm" data-testid="preview-subject">
            <strong>Subject:</strong> {shown.subject}
          </p>
          <TemplateBody html={shown.body} />
          {shown.missing.length ? (
            <p role="status" className="text-sm text-amber-800">
              No value for: {shown.missing.join(", ")}. Add a fallback, e.g. {"{{city | your area}}"}.
            </p>
          ) : null}
          {usesIcebreaker(subject + body) && previewed !== null ? (
            <IcebreakerPanel key={previewed} businessId={previewed} onChanged={() => previewing.mutate(previewed)} />
          ) : null}
        </>
      ) : null}
    </div>
  );
}

/** Whether a template uses the `{{icebreaker}}` variable. */
export function usesIcebreaker(text: string): boolean {
  return /\{\{\s*icebreaker\s*(\||\}\})/.test(text);
}

/** The first 200 characters of the body's text (A §9). */
export function previewText(html: string): string {
  const text = new DOMParser().parseFromString(html, "text/html").body.textContent ?? "";
  const clean = text.replace(/\s+/g, " ").trim();
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean;
}

