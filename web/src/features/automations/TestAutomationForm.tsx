/** The automation test (B §2.6, §3 Automation test form, §5, §8, §9): 1 to 5 emails of the template, written for
 * made-up businesses of the automation's kind and area, sent to the test address only with the form's from name and
 * reply-to. It saves nothing to the automation; the answer says what the automatic-answer settings would do. Used by
 * the Test Automation tab and by each automation card's Test dialog. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ButtonLink, Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { SelectField, TextField } from "../../components/ui/field";
import { Spinner } from "../../components/ui/spinner";
import { GOOGLE_SIGN_IN_PATH, useAuth } from "../../lib/auth";
import type { Automation, AutomationTestResult, Template } from "@outreach/client/api/types";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { testError } from "./rules";

/** The Test Automation tab: a loading state while the session is checked, 'Please Log In' without one. */
export function TestAutomationScreen() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <Spinner label="Loading..." />;
  if (!user) {
    return (
      <Card title="Please Log In">
        <p className="mb-3 text-slate-600">Sign in to test your automations.</p>
        <ButtonLink href={GOOGLE_SIGN_IN_PATH}>Continue with Google</ButtonLink>
      </Card>
    );
  }
  return (
    <Card title="Test Automation">
      <TestAutomationForm />
    </Card>
  );
}

export function TestAutomationForm({ automationId }: { automationId?: number }) {
  const { user } = useAuth();
  const automations = useQuery<Automation[] | null>({ queryKey: ["/api/automations"] });
  const templates = useQuery<Template[] | null>({ queryKey: ["/api/email-templates"] });
  const [form, setForm] = useState({
    testEmail: user?.email ?? "",
    quantity: "1",
    automationId: automationId ? String(automationId) : "",
    emailTemplateId: "",
    autoReplyEnabled: true,
    confidenceThreshold: "0.85",
    autoReplyDelayMinutes: "0",
    requireHumanApproval: false,
    autoReplyMaxPerDay: "20",
    fromName: "",
    fromEmail: "",
    replyToEmail: "",
    signatureName: "",
    signatureTitle: "",
    signatureCompany: "",
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<AutomationTestResult | null>(null);
  const change = (patch: Partial<typeof form>) => setForm((current) => ({ ...current, ...patch }));
  const chosen = (automations.data ?? []).find((automation) => String(automation.id) === form.automationId);
  const sending = useApiMutation({
    mutationFn: (body: unknown) => requestJson<AutomationTestResult>("POST", "/api/automations/test", body),
    success: (answer) => ({ title: "Test emails sent", description: `${answer.sent ?? 0} sent to ${form.testEmail}` }),
    failure: () => ({ title: "Test email failed", description: "Failed to send test emails", variant: "destructive", duration: 6_000 }),
    onSuccess: setResult,
  });
  const submit = () => {
    const numbers = {
      quantity: Number(form.quantity),
      confidenceThreshold: Number(form.confidenceThreshold),
      autoReplyDelayMinutes: Number(form.autoReplyDelayMinutes),
      autoReplyMaxPerDay: Number(form.autoReplyMaxPerDay),
    };
    const error = testError({ testEmail: form.testEmail, ...numbers, templateChosen: form.emailTemplateId !== "" || Boolean(chosen?.emailTemplateId) });
    setProblem(error);
    if (error) return;
    const optional = (text: string) => (text.trim() === "" ? null : text.trim());
    sending.mutate({
      testEmail: form.testEmail.trim(),
      ...numbers,
      automationId: form.automationId ? Number(form.automationId) : null,
      emailTemplateId: form.emailTemplateId ? Number(form.emailTemplateId) : null,
      autoReplyEnabled: form.autoReplyEnabled,
      requireHumanApproval: form.requireHumanApproval,
      fromName: optional(form.fromName),
      fromEmail: optional(form.fromEmail),
      replyToEmail: optional(form.replyToEmail),
      signatureName: optional(form.signatureName),
      signatureTitle: optional(form.signatureTitle),
      signatureCompany: optional(form.signatureCompany),
    });
  };
  return (
    <div className="space-y-3" aria-label="Automation test">
      <div className="grid gap-3 md:grid-cols-2">
        <TextField label="Test email address" type="email" value={form.testEmail} onChange={(event) => change({ testEmail: event.target.value })} />
        <TextField label="Number of test emails" type="number" min={1} max={5} value={form.quantity} onChange={(event) => change({ quantity: event.target.value })} />
        {automationId ? null : (
          <SelectField
            label="Automation"
            options={[{ value: "", label: "None" }, ...(automations.data ?? []).map((automation) => ({ value: String(automation.id), label: automation.campaignName }))]}
            value={form.automationId}
            onChange={(event) => change({ automationId: event.target.value })}
          />
        )}
        <SelectField
          label="Email template"
          options={[{ value: "", label: chosen ? "The automation's template" : "Choose a template" }, ...(templates.data ?? []).map((template) => ({ value: String(template.id), label: template.name }))]}
          value={form.emailTemplateId}
          onChange={(event) => change({ emailTemplateId: event.target.value })}
        />
      </div>
      <fieldset className="rounded-md border border-slate-200 p-3" aria-label="Automatic answers">
        <legend className="px-1 text-sm font-semibold">Automatic answers (tried in this test, not saved)</legend>
        <div className="grid gap-3 md:grid-cols-2">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={form.autoReplyEnabled} onChange={(event) => change({ autoReplyEnabled: event.target.checked })} />
            Answer replies automatically
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={form.requireHumanApproval} onChange={(event) => change({ requireHumanApproval: event.target.checked })} />
            Every answer waits for my approval
          </label>
          <TextField label="Confidence threshold (0 to 1)" type="number" min={0} max={1} step={0.01} value={form.confidenceThreshold} onChange={(event) => change({ confidenceThreshold: event.target.value })} />
          <TextField label="Answer delay (minutes)" type="number" min={0} max={1440} value={form.autoReplyDelayMinutes} onChange={(event) => change({ autoReplyDelayMinutes: event.target.value })} />
          <TextField label="Automatic answers a day at most" type="number" min={1} max={100} value={form.autoReplyMaxPerDay} onChange={(event) => change({ autoReplyMaxPerDay: event.target.value })} />
        </div>
      </fieldset>
      <details className="rounded-md border border-slate-200 p-3">
        <summary className="cursor-pointer text-sm font-semibold">Branding and signature (optional)</summary>
        <div className="mt-2 grid gap-3 md:grid-cols-3">
          <TextField label="From name" value={form.fromName} onChange={(event) => change({ fromName: event.target.value })} />
          <TextField label="From email" type="email" value={form.fromEmail} onChange={(event) => change({ fromEmail: event.target.value })} />
          <TextField label="Reply-to email" type="email" value={form.replyToEmail} onChange={(event) => change({ replyToEmail: event.target.value })} />
          <TextField label="Signature name" value={form.signatureName} onChange={(event) => change({ signatureName: event.target.value })} />
          <TextField label="Signature title" value={form.signatureTitle} onChange={(event) => change({ signatureTitle: event.target.value })} />
          <TextField label="Signature company" value={form.signatureCompany} onChange={(event) => change({ signatureCompany: event.target.value })} />
        </div>
        <p className="mt-2 text-xs text-slate-500">The test emails carry this from name and reply-to address and come from your sender's address. Nothing is saved to the automation: its own settings are in its campaign (step 6).</p>
      </details>
      {problem ? (
        <p role="alert" className="text-sm text-red-600">
          {problem}
        </p>
      ) : null}
      <Button onClick={submit} disabled={sending.isPending}>
        {sending.isPending ? "Sending..." : "Send Test Emails"}
      </Button>
      <p className="text-xs text-slate-500">The emails go to the test address only, never to a business.</p>
      {result ? (
        <div role="status" className="space-y-1 text-sm">
          <p className="text-green-700">Sent to {form.testEmail}, written for: {result.businesses.join(", ")}</p>
          <p className="text-slate-600">{result.answers}</p>
        </div>
      ) : null}
    </div>
  );
}
