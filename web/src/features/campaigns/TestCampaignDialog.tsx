/** The Test Campaign dialog of step 6 (A §2 step 6, §5 Test campaign, §8): a test address and up to five of the
 * campaign's businesses; each chosen business gets its personalised email sent to the test address. At five the
 * other boxes are disabled ('Maximum Reached'). */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { TextField } from "../../components/ui/field";
import { toast } from "@outreach/client/toast-store";
import type { Business, TestResult } from "@outreach/client/api/types";
import { useAuth } from "../../lib/auth";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { LAUNCH_CHECK_KEY } from "./api";

export const MAX_TEST_BUSINESSES = 5;

/** The first rule a test request breaks, as the error toast's description (A §5 Test campaign), or null. */
export function testCampaignError(address: string, chosen: number[]): string | null {
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address.trim())) return "Please enter a valid test email address.";
  if (chosen.length === 0) return "Please select at least one business for testing.";
  if (chosen.length > MAX_TEST_BUSINESSES) return "Please select a maximum of 5 businesses for testing.";
  return null;
}

export function TestCampaignDialog({ businessIds, templateId, onClose }: { businessIds: number[]; templateId: number; onClose: () => void }) {
  const { user } = useAuth();
  // Issue 33.5: the user's own address unless they change it.
  const [address, setAddress] = useState(user?.email ?? "");
  const [chosen, setChosen] = useState<number[]>([]);
  const [result, setResult] = useState<string | null>(null);
  const owned = useQuery<Business[] | null>({ queryKey: ["/api/businesses"] });
  const inCampaign = new Set(businessIds);
  const businesses = (owned.data ?? []).filter((business) => inCampaign.has(business.id));
  const full = chosen.length >= MAX_TEST_BUSINESSES;

  const testing = useApiMutation({
    mutationFn: () => requestJson<TestResult>("POST", "/api/test-campaign", { testEmail: address.trim(), businessIds: chosen, templateId }),
    success: (answer) => {
      const failed = answer.errorType === "gmail_oauth_not_configured" ? "Gmail OAuth Required" : "Test Campaign Failed";
      return { title: answer.success ? "Test email sent" : failed, description: answer.troubleshooting ?? answer.message, variant: answer.success ? undefined : "destructive" };
    },
    failure: { title: "Test email failed", description: "Please try again" },
    invalidates: [LAUNCH_CHECK_KEY],
    onSuccess: (answer) => setResult(answer.message),
  });
  const send = () => {
    const problem = testCampaignError(address, chosen);
    if (problem) {
      toast({ title: "Test Campaign Error", description: problem, variant: "destructive" });
      return;
    }
    testing.mutate();
  };
  const toggle = (id: number, on: boolean) => {
    setChosen((current) => (on ? [...current, id] : current.filter((other) => other !== id)));
  };

  return (
    <Dialog title="Test Campaign" onClose={onClose} wide>
      <div className="space-y-3">
        <TextField label="Test email address" type="email" value={address} onChange={(event) => setAddress(event.target.value)} />
        <div className="flex items-center justify-between text-sm">
          <span className="font-medium">Businesses to test with</span>
          <span data-testid="test-selection" className={full ? "font-medium text-amber-700" : "text-slate-600"}>
            {full ? "Maximum Reached" : `${chosen.length} of ${MAX_TEST_BUSINESSES} selected`}
          </span>
        </div>
        {owned.isPending ? <p className="text-sm text-slate-600">Loading the campaign's businesses...</p> : null}
        <ul className="max-h-72 space-y-1 overflow-y-auto rounded-md border border-slate-200 p-2" aria-label="Businesses to test with">
          {businesses.map((business) => {
            const ticked = chosen.includes(business.id);
            return (
              <li key={business.id}>
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={ticked}
                    disabled={!ticked && full}
                    onChange={(event) => toggle(business.id, event.target.checked)}
                  />
                  <span>{business.name}</span>
                  <span className="text-slate-500">{business.email ?? "no email address: the test still shows its email"}</span>
                </label>
              </li>
            );
          })}
        </ul>
        <p className="text-xs text-slate-500">
          Each chosen business's personalised email goes to the test address. Test emails are real emails: they count toward your monthly limit, but
          not as sends of the template or the campaign.
        </p>
        {result ? <p role="status" className="text-sm text-slate-700">{result}</p> : null}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>Close</Button>
          <Button onClick={send} disabled={testing.isPending}>{testing.isPending ? "Sending Test..." : "Send Test Emails"}</Button>
        </div>
      </div>
    </Dialog>
  );
}
