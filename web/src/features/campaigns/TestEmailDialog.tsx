/** The standalone test-email dialog (A §5 'Choose Email Template / Launch Campaign', §8 Test email): to the user's
 * own address by default, 1 to 10 copies (3 by default) of a template, or of a custom subject and body. */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { SelectField, TextArea, TextField } from "../../components/ui/field";
import { toast } from "@outreach/client/toast-store";
import type { Template, TestResult } from "@outreach/client/api/types";
import { useAuth } from "../../lib/auth";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { textToHtml } from "../../lib/format";
import { DEFAULT_TEST_QUANTITY, testEmailAnswer, testEmailError, testEmailFailure, type TestEmailForm } from "./testEmail";

/** How long the "Redirecting to login..." toast is read before the page goes to sign-in (A §8). */
const SIGN_IN_AFTER_MS = 2_000;

const CUSTOM = "custom";

export function TestEmailDialog({ templates, templateId, onClose }: { templates: Template[]; templateId: number | null; onClose: () => void }) {
  const { user } = useAuth();
  const [form, setForm] = useState<TestEmailForm>({
    testEmail: user?.email ?? "",
    quantity: DEFAULT_TEST_QUANTITY,
    templateId,
    subject: "",
    body: "",
  });
  const [problem, setProblem] = useState<string | null>(null);
  const change = (fields: Partial<TestEmailForm>) => setForm((current) => ({ ...current, ...fields }));

  const sending = useApiMutation({
    mutationFn: () =>
      requestJson<TestResult>("POST", "/api/campaigns/test", {
        testEmail: form.testEmail.trim(),
        quantity: form.quantity,
        ...(form.templateId === null ? { subject: form.subject.trim(), body: textToHtml(form.body) } : { templateId: form.templateId }),
      }),
    success: (answer) => testEmailAnswer(answer),
    failure: (failure) => {
      const reading = testEmailFailure(failure);
      const { signInAt } = reading;
      if (signInAt) setTimeout(() => window.location.assign(signInAt), SIGN_IN_AFTER_MS);
      return reading;
    },
    onSuccess: (answer) => {
      if (answer.success) onClose();
    },
  });
  const send = () => {
    const broken = testEmailError(form);
    setProblem(broken);
    if (broken) {
      toast({ title: "Invalid Input", description: broken, variant: "destructive" });
      return;
    }
    sending.mutate();
  };

  const options = [
    ...templates.map((template) => ({ value: String(template.id), label: template.name })),
    { value: CUSTOM, label: "Custom subject and body" },
  ];
  return (
    <Dialog title="Send Test Email" onClose={onClose} wide>
      <div className="space-y-3">
        <TextField label="Test email address" type="email" value={form.testEmail} onChange={(event) => change({ testEmail: event.target.value })} />
        <TextField
          label="Number of test emails (1 to 10)"
          type="number"
          min={1}
          max={10}
          value={form.quantity}
          onChange={(event) => change({ quantity: Number(event.target.value) })}
        />
        <SelectField
          label="Content"
          options={options}
          value={form.templateId === null ? CUSTOM : String(form.templateId)}
          onChange={(event) => change({ templateId: event.target.value === CUSTOM ? null : Number(event.target.value) })}
        />
        {form.templateId === null ? (
          <>
            <TextField label="Subject" value={form.subject} onChange={(event) => change({ subject: event.target.value })} />
            <TextArea label="Body" rows={6} value={form.body} onChange={(event) => change({ body: event.target.value })} />
          </>
        ) : (
          <p className="text-sm text-slate-600">A test has no business of its own: the template's [business name] reads "Sample Business".</p>
        )}
        {problem ? (
          <p role="alert" className="text-sm text-red-700">
            {problem}
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={send} disabled={sending.isPending}>
            {sending.isPending ? "Sending..." : "Send Test Email"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
