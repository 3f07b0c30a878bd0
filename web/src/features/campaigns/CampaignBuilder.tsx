/** The six-step campaign builder (A §2 Campaign tab and builder, §4 Step progression, Create New Campaign, Stale
 * local data, Campaign name step), with discovery (step 2) and the sender and launch (steps 5–6) in their own
 * modules. */
import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { ConfirmDialog } from "../../components/ui/confirm-dialog";
import { TextField } from "../../components/ui/field";
import { toast } from "@outreach/client/toast-store";
import { CLEAR_SEARCH_DATA } from "@outreach/client/events";
import { count } from "../../lib/format";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { STORAGE_KEYS, aiEducationKeys, clearCampaignData } from "../../lib/storage";
import { CAMPAIGNS_KEY, STATUS_LABELS, statusBadgeClass, useCampaigns, useTemplates, type Campaign, type Template } from "./api";
import { Composer } from "./Composer";
import { DiscoveryStep } from "./DiscoveryStep";
import { EducationStep } from "./EducationStep";
import { LaunchStep } from "./LaunchStep";
import { OUTBOX, SenderStep } from "./SenderStep";
import { STEP_TITLES, Stepper } from "./Stepper";
import { TemplateChooser } from "./TemplateChooser";
import { browserTimeZone } from "./window";

export const STEP_EVENTS = { proceedToStep3: "proceedToStep3", showStep3: "showStep3", showStep4: "showStep4" };
const POLL_MS = 3000;

export function deleteCampaignConfirm(name: string): string {
  return `Are you sure you want to delete the campaign "${name}"? This action cannot be undone.`;
}

function banner(step: number, title: string): string {
  return step === 1 ? `STEP 1 OF 6: ${title}` : `STEP ${step} OUT OF 6: ${title}`;
}

/** The stored current campaign, kept in step with other tabs (storage events) and this one (polling). */
function useStoredCampaignId(): [number | null, (id: number | null, name?: string) => void] {
  const read = () => {
    const value = Number(localStorage.getItem(STORAGE_KEYS.currentCampaignId));
    return Number.isFinite(value) && value > 0 ? value : null;
  };
  const [id, setId] = useState<number | null>(read);
  useEffect(() => {
    const sync = () => setId(read());
    const timer = setInterval(sync, POLL_MS);
    window.addEventListener("storage", sync);
    return () => {
      clearInterval(timer);
      window.removeEventListener("storage", sync);
    };
  }, []);
  const store = useCallback((next: number | null, name?: string) => {
    if (next === null) {
      localStorage.removeItem(STORAGE_KEYS.currentCampaignId);
      localStorage.removeItem(STORAGE_KEYS.campaignName);
    } else {
      localStorage.setItem(STORAGE_KEYS.currentCampaignId, String(next));
      if (name !== undefined) localStorage.setItem(STORAGE_KEYS.campaignName, name);
    }
    setId(next);
  }, []);
  return [id, store];
}

export function CampaignBuilder() {
  const queryClient = useQueryClient();
  const campaigns = useCampaigns(true);
  const [currentId, setCurrentId] = useStoredCampaignId();
  const [unlocked, setUnlocked] = useState(1);
  // The one step in view; unlocking a step brings it into view.
  const [view, setView] = useState(1);
  const top = useRef<HTMLDivElement>(null);
  const open = useCallback((step: number) => {
    setView(step);
    top.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, []);
  const [creating, setCreating] = useState(false);
  const [composing, setComposing] = useState(false);
  const [chosenTemplate, setTemplate] = useState<Template | null>(null);
  const [sender, setSender] = useState("");
  // The rest of the campaign's pool of senders, after the one `sender` names.
  const [extraSenders, setExtraSenders] = useState<number[]>([]);
  const [education, setEducation] = useState<{ text: string; files: string[] }>({ text: "", files: [] });
  const list = campaigns.data ?? [];
  const current = list.find((campaign) => campaign.id === currentId) ?? null;
  // Read only to restore a campaign's template (the chooser reads them itself when step 4 shows).
  const templates = useTemplates(current?.templateId != null);
  // The builder resumes where the campaign left off, on any device: its furthest step, template and sender.
  const template = chosenTemplate ?? templates.data?.find((candidate) => candidate.id === current?.templateId) ?? null;
  // A campaign opened by a reload or another tab shows its furthest step; one picked from the list shows the
  // 'Campaign Ready' card of step 1 first (A §2).
  const [restoredFor, setRestoredFor] = useState<number | null>(null);
  const restore = (campaign: Campaign, inView: number) => {
    setRestoredFor(campaign.id);
    setUnlocked(Math.max(2, campaign.builderStep));
    setView(inView);
    setTemplate(null);
    setSender(campaign.emailConfigId != null ? String(campaign.emailConfigId) : "");
    setExtraSenders(campaign.emailConfigIds.slice(1));
  };
  if (current && restoredFor !== current.id) restore(current, Math.max(2, current.builderStep));

  // A stored id that is not among this user's campaigns is cleared (A §4 Stale local data).
  const stale = campaigns.isSuccess && currentId !== null && !current;
  useEffect(() => {
    if (stale) setCurrentId(null);
  }, [stale, setCurrentId]);

  useEffect(() => {
    const unlock = (step: number) => () => {
      setUnlocked((value) => Math.max(value, step));
      open(step);
    };
    const handlers: [string, () => void][] = [
      [STEP_EVENTS.proceedToStep3, unlock(3)],
      [STEP_EVENTS.showStep3, unlock(3)],
      [STEP_EVENTS.showStep4, unlock(4)],
    ];
    handlers.forEach(([name, handler]) => window.addEventListener(name, handler));
    return () => handlers.forEach(([name, handler]) => window.removeEventListener(name, handler));
  }, [open]);

  const updating = useApiMutation({
    mutationFn: ({ id, patch }: { id: number; patch: Record<string, unknown> }) => requestJson("PUT", `/api/campaigns/${id}`, patch),
    invalidates: [CAMPAIGNS_KEY],
    // A §8: what the builder keeps (its sender settings among them) failed to save.
    failure: { title: "Save Failed", description: "Failed to save email settings. Please try again." },
    // A 403 means the stored campaign is not this user's any more: the stale stored id goes (A §8).
    onError: (failure) => {
      if (failure.message.startsWith("403")) setCurrentId(null);
    },
  });
  /** Updates the current campaign. */
  const update = (patch: Record<string, unknown>) => {
    if (current) updating.mutate({ id: current.id, patch });
  };
  /** Unlocks a step and remembers it with the campaign. */
  const reach = (step: number, patch: Record<string, unknown> = {}) => {
    setUnlocked((value) => Math.max(value, step));
    open(step);
    update({ ...patch, builderStep: step });
  };

  const select = (campaign: Campaign) => {
    setCurrentId(campaign.id, campaign.name);
    restore(campaign, 1);
    setCreating(false);
    const stored = localStorage.getItem(aiEducationKeys(campaign.id).text);
    setEducation({ text: stored ?? campaign.aiEducationText ?? "", files: campaign.aiEducationFiles });
    toast({ title: "Campaign Selected", description: campaign.name });
  };

  const createNew = () => {
    clearCampaignData();
    setCurrentId(null);
    setTemplate(null);
    setComposing(false);
    setUnlocked(1);
    setView(1);
    setCreating(true);
    window.dispatchEvent(new Event(CLEAR_SEARCH_DATA));
  };

  const removing = useApiMutation({
    mutationFn: (campaign: Campaign) => requestJson("DELETE", `/api/campaigns/${campaign.id}`),
    success: { title: "Campaign deleted" },
    failure: { title: "Failed to delete campaign", description: "Please try again" },
    invalidates: [CAMPAIGNS_KEY],
    onSuccess: (_, campaign) => {
      setDeleting(null);
      if (campaign.id !== currentId) return;
      setCurrentId(null);
      localStorage.removeItem(STORAGE_KEYS.selectedBusinesses);
      setUnlocked(1);
      setView(1);
    },
  });
  const [deleting, setDeleting] = useState<Campaign | null>(null);

  // What each reached step holds, for the stepper.
  const selected = current?.businessIds.length ?? 0;
  const summaries = [
    current?.name ?? null,
    current ? count(selected, "business selected", "businesses selected") : null,
    current && (education.text || education.files.length > 0 || current.aiEducationText) ? "Notes saved" : "Optional",
    template?.name ?? null,
    current?.emailFromName ?? null,
    current ? (STATUS_LABELS[current.status] ?? current.status) : null,
  ];
  const reached = current ? unlocked : 1;
  const shown = current ? view : 1;
  return (
    <div className="space-y-4" ref={top}>
      <Stepper inView={shown} reached={reached} summaries={summaries} onOpen={open} />

      {shown === 1 ? (
        <Card title={banner(1, "Currently Working On This Campaign")}>
          {list.length === 0 && !creating ? (
            <div className="mb-4 rounded-md bg-slate-50 p-4 text-sm text-slate-700" data-testid="builder-guide">
              <p className="font-medium">No campaigns yet. A campaign takes six steps:</p>
              <p className="mt-1">
                name it, find businesses by place or topic, tell the AI about your offer, choose or write an email template, pick the sender, then test
                and launch.
              </p>
            </div>
          ) : null}
          <ul aria-label="Campaigns" className="grid gap-3 md:grid-cols-2">
            {list.map((campaign) => (
              <li key={campaign.id}>
                <div className={`rounded-md border p-3 ${campaign.id === currentId ? "border-brand ring-1 ring-brand" : "border-slate-200"}`}>
                  <button className="w-full text-left" onClick={() => select(campaign)}>
                    <span className="flex items-center justify-between gap-2">
                      <span className="font-medium">{campaign.name}</span>
                      <span className={`rounded-full px-2 py-0.5 text-xs ${statusBadgeClass(campaign.status)}`}>{STATUS_LABELS[campaign.status] ?? campaign.status}</span>
                    </span>
                    <span className="block text-xs text-slate-600">
                      Created {new Date(campaign.createdAt).toLocaleDateString()} · {count(campaign.emailsSent, "email", "emails")} sent · {campaign.category || "General"}
                    </span>
                  </button>
                  <Button variant="ghost" className="mt-1" onClick={() => setDeleting(campaign)} aria-label={`Delete ${campaign.name}`}>
                    Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
          <div className="mt-3 flex gap-2">
            <Button onClick={createNew}>Create New Campaign</Button>
          </div>
          {deleting ? (
            <ConfirmDialog
              title="Delete campaign"
              message={deleteCampaignConfirm(deleting.name)}
              confirmLabel="Delete"
              busy={removing.isPending}
              onConfirm={() => removing.mutate(deleting)}
              onCancel={() => setDeleting(null)}
            />
          ) : null}
          {creating || current ? (
            <NameStep
              key={current?.id ?? "new"}
              campaign={current}
              onCreated={(campaign) => {
                // In the cached list at once, so the stale-id rule does not clear the new campaign.
                queryClient.setQueryData<Campaign[]>(CAMPAIGNS_KEY, (old) => [campaign, ...(old ?? [])]);
                setCreating(false);
                select(campaign);
              }}
            />
          ) : null}
          {current ? (
            <div className="mt-4 rounded-md border border-slate-200 p-4" data-testid="campaign-ready">
              <h3 className="font-semibold">Campaign Ready</h3>
              <p className="text-slate-700">
                <strong>{current.name}</strong> is your current campaign.
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Button onClick={() => reach(2)}>Next Step: Find Businesses</Button>
                {unlocked > 2 ? (
                  <Button variant="outline" onClick={() => open(unlocked)}>
                    Continue at Step {unlocked}: {STEP_TITLES[unlocked - 1]}
                  </Button>
                ) : null}
              </div>
            </div>
          ) : null}
        </Card>
      ) : null}

      {current && shown === 2 ? (
        <Card title={banner(2, "Find Businesses")}>
          <DiscoveryStep
            key={current.id}
            campaign={current}
            onProceed={(ids) => {
              reach(3, { businessIds: ids, status: "businesses_selected" });
              window.dispatchEvent(new Event(STEP_EVENTS.proceedToStep3));
            }}
          />
        </Card>
      ) : null}

      {current && shown === 3 ? (
        <Card title={banner(3, "Educate the AI")}>
          <EducationStep key={current.id} campaign={current} onSaved={setEducation} />
          <Button
            variant="outline"
            className="mt-3"
            onClick={() => {
              reach(4);
              window.dispatchEvent(new Event(STEP_EVENTS.showStep4));
            }}
          >
            Proceed to Step 4
          </Button>
        </Card>
      ) : null}

      {current && shown === 4 ? (
        <Card title={banner(4, "Choose Email Template")}>
          {composing ? (
            <Composer
              campaignId={current.id}
              businessIds={current.businessIds}
              education={education}
              onSaved={(saved) => {
                setComposing(false);
                setTemplate(saved);
                reach(5, { status: "template_selected", templateId: saved.id });
              }}
            />
          ) : (
            <TemplateChooser
              selectedId={template?.id ?? null}
              onChoose={(chosen) => {
                setTemplate(chosen);
                reach(5, { status: "template_selected", templateId: chosen.id });
              }}
              onCreate={() => setComposing(true)}
            />
          )}
        </Card>
      ) : null}

      {current && shown >= 5 && !template ? <p className="text-slate-600">Loading the campaign's template...</p> : null}

      {current && template && shown === 5 ? (
        <Card title={banner(5, "Sender Configuration")}>
          <p className="mb-2 text-slate-600">Template <strong>{template.name}</strong> is chosen.</p>
          <SenderStep
            key={current.id}
            campaign={current}
            sender={sender}
            extras={extraSenders}
            saving={updating.isPending}
            onSenderChange={(value, picked) => {
              setSender(value);
              const extras = value === OUTBOX ? [] : extraSenders.filter((id) => String(id) !== value);
              setExtraSenders(extras);
              // A pick by the user is kept with the campaign; the preselected default is not.
              if (picked) update(value !== OUTBOX ? { emailConfigIds: [Number(value), ...extras] } : { emailConfigId: null });
            }}
            onExtrasChange={(extras) => {
              setExtraSenders(extras);
              if (sender && sender !== OUTBOX) update({ emailConfigIds: [Number(sender), ...extras] });
            }}
            onContinue={(choice) => reach(6, { emailFromName: choice.emailFromName, replyTo: choice.replyTo })}
          />
        </Card>
      ) : null}

      {current && template && shown === 6 ? (
        <Card title={banner(6, "Test and Launch")}>
          <LaunchStep key={current.id} campaign={current} template={template} sender={sender} extraSenders={extraSenders} />
        </Card>
      ) : null}
    </div>
  );
}

/** The campaign-name step: unsaved, saved (locked view with Edit), editing (Cancel Changes). */
function NameStep({ campaign, onCreated }: { campaign: Campaign | null; onCreated: (campaign: Campaign) => void }) {
  const [name, setName] = useState(campaign?.name ?? "");
  const [editing, setEditing] = useState(!campaign);
  const [error, setError] = useState<string | null>(null);

  const saving = useApiMutation({
    mutationFn: (trimmed: string) =>
      campaign ? requestJson<Campaign>("PUT", `/api/campaigns/${campaign.id}`, { name: trimmed }) : requestJson<Campaign>("POST", "/api/campaigns", { name: trimmed, timeZone: browserTimeZone() }),
    success: { title: campaign ? "Campaign updated" : "Campaign created" },
    failure: campaign ? { title: "Failed to save campaign", description: "Please try again" } : { title: "Creation failed", description: "Failed to create campaign" },
    // A new campaign goes into the cached list by onCreated; a renamed one is read again.
    invalidates: campaign ? [CAMPAIGNS_KEY] : [],
    onSuccess: (saved, trimmed) => {
      setEditing(false);
      if (campaign) localStorage.setItem(STORAGE_KEYS.campaignName, trimmed);
      else onCreated(saved);
    },
  });

  const save = () => {
    if (!name.trim()) {
      setError("Campaign name required: Please enter a descriptive name for your campaign");
      return;
    }
    setError(null);
    saving.mutate(name.trim());
  };

  if (!editing && campaign) {
    return (
      <div className="mt-4 flex items-center justify-between rounded-md bg-slate-50 p-3" data-testid="campaign-name-locked">
        <span>
          Campaign name: <strong>{campaign.name}</strong>
        </span>
        <Button variant="outline" onClick={() => setEditing(true)}>Edit</Button>
      </div>
    );
  }
  return (
    <form
      className="mt-4 space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <TextField label="Campaign name" value={name} onChange={(e) => setName(e.target.value)} error={error} />
      <div className="flex gap-2">
        <Button type="submit" disabled={saving.isPending}>Save Campaign Name</Button>
        {campaign ? (
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              setName(campaign.name);
              setEditing(false);
              toast({ title: "Changes cancelled" });
            }}
          >
            Cancel Changes
          </Button>
        ) : null}
      </div>
    </form>
  );
}
