/** The Automation tab (B §2.5, §4, §8, §9; issue 21): a card per automation with Pause/Start, Run Now (its result in
 * an 8-second toast), Test and delete; the Create Automation dialog; the Edit/Analytics dialog opened from the
 * campaign name. */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { Dialog } from "../../components/ui/dialog";
import { SelectField, TextField } from "../../components/ui/field";
import { Tile } from "../../components/ui/tile";
import type { Automation, AutomationAnalytics, RunResult, Template } from "@outreach/client/api/types";
import { automationOpenRateText, formatDateTime, sentText } from "../../lib/format";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { NEW_FORM, cardRefetchMs, nextRunText, readForm, runToast, type FormState } from "./rules";
import { TestAutomationForm } from "./TestAutomationForm";

export const AUTOMATIONS_KEY = "/api/automations";
const RUNS_KEY = "/api/automation-runs";
const FAILURE_MS = 6_000;

export function AutomationTab() {
  const automations = useQuery<Automation[] | null>({ queryKey: [AUTOMATIONS_KEY], refetchInterval: (query) => cardRefetchMs(query.state.data) });
  const templates = useQuery<Template[] | null>({ queryKey: ["/api/email-templates"] });
  const [creating, setCreating] = useState(false);
  const list = automations.data ?? [];
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 className="text-lg font-semibold">Automations</h2>
          <p className="text-sm text-slate-600">Each day an automation finds new businesses of a type in an area and emails the ones with an address with your template.</p>
        </div>
        <Button onClick={() => setCreating(true)}>Create Automation</Button>
      </div>
      {automations.isLoading ? <p className="text-slate-600">Loading automations...</p> : null}
      {!automations.isLoading && list.length === 0 ? (
        <Card>
          <p className="text-slate-600">No automations yet. Create one to find and email new businesses every day.</p>
        </Card>
      ) : null}
      <ul className="grid gap-3 md:grid-cols-2" aria-label="Automations">
        {list.map((automation) => (
          <AutomationCard key={automation.id} automation={automation} templates={templates.data ?? []} fetchedAt={automations.dataUpdatedAt} />
        ))}
      </ul>
      {creating ? <AutomationDialog templates={templates.data ?? []} onClose={() => setCreating(false)} /> : null}
    </div>
  );
}

/** `fetchedAt`: when the card's data was read; a next run due by then starts within a minute. */
function AutomationCard({ automation, templates, fetchedAt }: { automation: Automation; templates: Template[]; fetchedAt: number }) {
  const [editing, setEditing] = useState(false);
  const [testing, setTesting] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const refresh = [[AUTOMATIONS_KEY], [RUNS_KEY]];
  const toggling = useApiMutation({
    mutationFn: () => requestJson<Automation>("PATCH", `/api/automations/${automation.id}`, { isActive: !automation.isActive }),
    success: (saved) => ({ title: saved.isActive ? "Automation started" : "Automation paused" }),
    failure: { title: "Error", description: "Failed to update automation" },
    invalidates: refresh,
  });
  const running = useApiMutation({
    mutationFn: () => requestJson<RunResult>("POST", `/api/automations/${automation.id}/run`),
    success: (result) => ({ ...runToast(result), duration: 8_000 }),
    failure: () => ({ title: "Automation failed", description: "Failed to run automation", variant: "destructive", duration: FAILURE_MS }),
    invalidates: refresh,
  });
  const removing = useApiMutation({
    mutationFn: () => requestJson("DELETE", `/api/automations/${automation.id}`),
    success: { title: "Automation deleted" },
    failure: { title: "Error", description: "Failed to delete automation" },
    invalidates: refresh,
    onSuccess: () => setDeleting(false),
  });
  const template = templates.find((item) => item.id === automation.emailTemplateId);
  const ended = Boolean(automation.endedReason);
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="automation-card">
      <div className="flex items-start justify-between gap-2">
        <button className="text-left font-semibold text-brand underline-offset-2 hover:underline" onClick={() => setEditing(true)}>
          {automation.campaignName}
        </button>
        <Badge value={ended ? "Ended" : automation.isActive ? "Active" : "Paused"} />
      </div>
      <p className="text-sm text-slate-600">
        {automation.businessType} within {automation.radius} miles of {automation.geographicArea} · {automation.maxBusinessesPerDay} a day · {automation.schedule}
      </p>
      <p className="text-sm text-slate-600">Template: {template?.name ?? "none (choose one)"} · {sentText(automation.emailsSent, automation.emailsWaiting)}
        {automation.maxTotalEmails ? ` · ${automation.emailsWritten} of its ${automation.maxTotalEmails} emails written` : ""}
      </p>
      <p className="text-xs text-slate-500">
        Last run: {automation.lastRun ? formatDateTime(automation.lastRun) : "never"} · Next run: {nextRunText(automation.nextRun, fetchedAt)}
      </p>
      {automation.endedReason ? <p className="mt-1 text-sm text-amber-800">{automation.endedReason}</p> : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => toggling.mutate()} disabled={toggling.isPending || (ended && !automation.isActive)}>
          {automation.isActive ? "Pause" : "Start"}
        </Button>
        <Button onClick={() => running.mutate()} disabled={running.isPending}>
          {running.isPending ? "Running..." : "Run Now"}
        </Button>
        <Button variant="outline" onClick={() => setTesting(true)}>
          Test
        </Button>
        <Button variant="outline" onClick={() => setDeleting(true)}>
          Delete
        </Button>
      </div>
      {editing ? <AutomationDialog automation={automation} templates={templates} onClose={() => setEditing(false)} /> : null}
      {testing ? (
        <Dialog title="Test automation" onClose={() => setTesting(false)} wide>
          <TestAutomationForm automationId={automation.id} />
        </Dialog>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete automation"
          message={`Delete the automation "${automation.campaignName}"? The emails it sent and their analytics stay with its campaign.`}
          confirmLabel="Delete"
          busy={removing.isPending}
          onConfirm={() => removing.mutate()}
          onCancel={() => setDeleting(false)}
        />
      ) : null}
    </li>
  );
}

function toForm(automation: Automation): FormState {
  return {
    campaignName: automation.campaignName,
    businessType: automation.businessType,
    geographicArea: automation.geographicArea,
    radius: String(automation.radius),
    maxBusinessesPerDay: String(automation.maxBusinessesPerDay),
    emailTemplateId: automation.emailTemplateId ? String(automation.emailTemplateId) : "",
    maxTotalEmails: automation.maxTotalEmails ? String(automation.maxTotalEmails) : "",
    campaignDurationMinutes: automation.campaignDurationMinutes ? String(automation.campaignDurationMinutes) : "",
    isActive: automation.isActive,
  };
}

/** Create Automation, or Edit/Analytics of one (with its figures). */
function AutomationDialog({ automation, templates, onClose }: { automation?: Automation; templates: Template[]; onClose: () => void }) {
  const [form, setForm] = useState<FormState>(automation ? toForm(automation) : NEW_FORM);
  const [problem, setProblem] = useState<string | null>(null);
  const change = (patch: Partial<FormState>) => setForm((current) => ({ ...current, ...patch }));
  const figures = useQuery<AutomationAnalytics | null>({ queryKey: [`/api/automations/${automation?.id}/analytics`], enabled: Boolean(automation) });
  const saving = useApiMutation({
    mutationFn: (body: unknown) =>
      automation ? requestJson<Automation>("PATCH", `/api/automations/${automation.id}`, body) : requestJson<Automation>("POST", "/api/automations", body),
    success: { title: automation ? "Automation updated" : "Automation created" },
    failure: { title: "Error", description: automation ? "Failed to update automation" : "Failed to create automation" },
    invalidates: [[AUTOMATIONS_KEY]],
    onSuccess: onClose,
  });
  const submit = () => {
    const read = readForm(form);
    if ("error" in read) {
      setProblem(read.error);
      return;
    }
    setProblem(null);
    saving.mutate(read.body);
  };
  return (
    <Dialog title={automation ? `${automation.campaignName}: edit and analytics` : "Create Automation"} onClose={onClose} wide>
      {automation && figures.data ? (
        <div className="mb-4 grid gap-2 sm:grid-cols-4" aria-label="Automation analytics">
          <Tile label="Emails Sent" value={figures.data.emailsSent} />
          <Tile label="Opened" value={figures.data.emailsOpened} />
          <Tile label="Replied" value={figures.data.emailsReplied} />
          <Tile label="Open Rate" value={automationOpenRateText(figures.data.openRate)} />
        </div>
      ) : null}
      <div className="grid gap-3 md:grid-cols-2">
        <TextField label="Campaign name" value={form.campaignName} onChange={(event) => change({ campaignName: event.target.value })} />
        <TextField label="Business type" placeholder="cafe, restaurant, hairdresser..." value={form.businessType} onChange={(event) => change({ businessType: event.target.value })} />
        <TextField label="Geographic area" value={form.geographicArea} onChange={(event) => change({ geographicArea: event.target.value })} />
        <TextField label="Radius (miles)" type="number" min={1} max={100} value={form.radius} onChange={(event) => change({ radius: event.target.value })} />
        <TextField label="Businesses a day" type="number" min={1} max={50} value={form.maxBusinessesPerDay} onChange={(event) => change({ maxBusinessesPerDay: event.target.value })} />
        <SelectField
          label="Email template"
          options={[{ value: "", label: "Choose a template" }, ...templates.map((template) => ({ value: String(template.id), label: template.name }))]}
          value={form.emailTemplateId}
          onChange={(event) => change({ emailTemplateId: event.target.value })}
        />
        <TextField label="Total emails (optional)" type="number" min={1} max={1000} value={form.maxTotalEmails} onChange={(event) => change({ maxTotalEmails: event.target.value })} />
        <TextField label="Runs for minutes (optional)" type="number" min={1} max={10080} value={form.campaignDurationMinutes} onChange={(event) => change({ campaignDurationMinutes: event.target.value })} />
      </div>
      <label className="mt-3 flex items-center gap-2 text-sm">
        <input type="checkbox" checked={form.isActive} onChange={(event) => change({ isActive: event.target.checked })} />
        Active (runs every day)
      </label>
      {problem ? (
        <p role="alert" className="mt-2 text-sm text-red-600">
          {problem}
        </p>
      ) : null}
      <p className="mt-2 text-xs text-slate-500">
        Businesses you already emailed in any campaign, and addresses that unsubscribed, are never picked. It stops for good once it has sent its total
        or its minutes are over.
      </p>
      <div className="mt-3 flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} disabled={saving.isPending}>
          {automation ? "Save Changes" : "Create Automation"}
        </Button>
      </div>
    </Dialog>
  );
}
