/** Level 1, Gmail (A §4 Gmail OAuth setup flow, §5, §6): provider check, then the login address or a different
 * one, the sender identity, the consent dialog (sending only, revocable), and the redirect to Google. */
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Dialog } from "../../components/ui/dialog";
import { TextField } from "../../components/ui/field";
import { toast } from "@outreach/client/toast-store";
import { useAuth } from "../../lib/auth";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { goToGoogle } from "./api";
import { differentEmailProblem, gmailAddressProblem, gmailSetupFailure, googleAccountKind } from "./rules";
import type { ConsentUrl, SenderSetup } from "@outreach/client/api/types";

type Step = "provider-check" | "email-choice" | "identity" | "complete";

export function GmailLevel({ available, onAdvanced }: { available: boolean; onAdvanced: () => void }) {
  const user = useAuth().user;
  const [step, setStep] = useState<Step>("provider-check");
  const [address, setAddress] = useState("");
  const [different, setDifferent] = useState(false);
  const [first, setFirst] = useState(user?.firstName ?? "");
  const [last, setLast] = useState(user?.lastName ?? "");
  const [replyTo, setReplyTo] = useState("");
  const [consent, setConsent] = useState(false);
  const login = user?.email ?? "";
  const target = different ? address.trim().toLowerCase() : login;

  // Accepting asks the server for Google's URL; the browser goes there after a second.
  const accepting = useApiMutation({
    mutationFn: async () => {
      const name = `${first.trim()} ${last.trim()}`;
      const answer = different
        ? await requestJson<ConsentUrl>("POST", "/api/auth/gmail/additional", { email: target, emailSendFromName: name, emailReplyTo: replyTo.trim() || login })
        : await requestJson<SenderSetup>("POST", "/api/user/email-config", { emailProvider: "gmail", emailSendFrom: target, emailSendFromName: name, emailReplyTo: replyTo.trim() || login, useOAuth: true, tier: "basic" });
      return "authUrl" in answer ? answer.authUrl : "oauthUrl" in answer ? answer.oauthUrl : undefined;
    },
    success: (url) =>
      url
        ? { title: "Redirecting to Google", description: `Grant sending permission for ${target}.` }
        : { title: "OAuth Setup Error", description: "OAuth URL not prepared. Please try the setup process again.", variant: "destructive" },
    failure: (failure) => gmailSetupFailure(failure, different),
    onSuccess: (url) => {
      if (!url) return;
      setStep("complete");
      setConsent(false);
      goToGoogle(url, 1000);
    },
  });

  if (!available) {
    return (
      <p className="text-sm text-slate-700" data-testid="gmail-unavailable">
        Gmail sending is not set up on this instance yet: ask the administrator to connect Google. Meanwhile you can send with Basic SendGrid,
        Branded SendGrid or SMTP.
      </p>
    );
  }

  const chooseDifferent = () => {
    const problem = differentEmailProblem(address) ?? gmailAddressProblem(address);
    if (problem) {
      toast({ ...problem, variant: "destructive" });
      return;
    }
    setStep("identity");
  };

  const save = () => {
    if (!first.trim() || !last.trim()) {
      toast({ title: "Missing Information", description: "Please enter your first and last name.", variant: "destructive" });
      return;
    }
    setConsent(true);
  };

  return (
    <div className="space-y-4">
      {step === "provider-check" ? (
        <div>
          <p className="font-medium">Do you use Gmail or Google Workspace for your email?</p>
          <div className="mt-3 flex gap-2">
            <Button onClick={() => setStep("email-choice")}>Yes</Button>
            <Button variant="outline" onClick={onAdvanced}>No</Button>
          </div>
        </div>
      ) : null}
      {step === "email-choice" ? (
        <div className="space-y-3">
          <p className="font-medium">Which address should your campaigns come from?</p>
          <Button variant="outline" onClick={() => { setDifferent(false); setStep("identity"); }}>Use {login}</Button>
          <form aria-label="Different Gmail address" className="flex flex-wrap items-end gap-2" onSubmit={(event) => { event.preventDefault(); setDifferent(true); chooseDifferent(); }}>
            <TextField label="A different Gmail address" type="email" value={address} onChange={(event) => setAddress(event.target.value)} placeholder="you@gmail.com" />
            <Button type="submit" variant="outline" disabled={!address.trim()}>Continue</Button>
          </form>
        </div>
      ) : null}
      {step === "identity" ? (
        <form aria-label="Gmail sender" className="grid gap-3 sm:grid-cols-2" onSubmit={(event) => { event.preventDefault(); save(); }}>
          <p className="sm:col-span-2 text-sm text-slate-700">
            Sending as <strong>{target}</strong> ({googleAccountKind(target)}; up to {googleAccountKind(target) === "Gmail" ? "500" : "2,000"} emails a day).
          </p>
          <TextField label="First name" value={first} onChange={(event) => setFirst(event.target.value)} />
          <TextField label="Last name" value={last} onChange={(event) => setLast(event.target.value)} />
          <TextField label="Reply-To (optional)" type="email" value={replyTo} placeholder={login} onChange={(event) => setReplyTo(event.target.value)} />
          <div className="sm:col-span-2 flex gap-2">
            <Button type="submit">Save and Connect Gmail</Button>
            <Button type="button" variant="ghost" onClick={() => setStep("email-choice")}>Back</Button>
          </div>
        </form>
      ) : null}
      {step === "complete" ? (
        <div>
          <p className="text-sm text-slate-700">Finish the permission request in the Google window. Your sender appears in the list when Google confirms it.</p>
          <Button className="mt-2" variant="outline" onClick={() => { setStep("provider-check"); setAddress(""); }}>Configure Another Email</Button>
        </div>
      ) : null}
      {consent ? (
        <Dialog title="Gmail Permission" onClose={() => setConsent(false)}>
          <p>Outreach asks Google for one permission: <strong>sending email</strong> from {target} (gmail.send). It cannot read, delete or change your mail.</p>
          <p className="mt-2 text-sm text-slate-600">You can revoke this permission at any time in your Google account settings (Security → Third-party access).</p>
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="outline" onClick={() => setConsent(false)}>Cancel</Button>
            <Button disabled={accepting.isPending} onClick={() => accepting.mutate()}>{accepting.isPending ? "Preparing..." : "Continue to Google"}</Button>
          </div>
        </Dialog>
      ) : null}
    </div>
  );
}
