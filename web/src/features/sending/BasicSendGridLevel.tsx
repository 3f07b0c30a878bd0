/** Level 2, basic SendGrid (A §4 Username availability, Level 2; §5 Sender identity): an address on the
 * instance's sending domain, the username checked as it is typed (debounced, from 3 characters; a failed check
 * counts as available), Create Address, then Send Test to the user's own address. */
import { useEffect, useState } from "react";
import { Button } from "../../components/ui/button";
import { TextField } from "../../components/ui/field";
import { toast } from "@outreach/client/toast-store";
import { useAuth } from "../../lib/auth";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import { CONFIGS_KEY, type EmailConfig } from "./api";
import { isBasicAddress, USERNAME_CHECK_DELAY_MS, USERNAME_CHECK_MIN, USERNAME_RULE, validUsername } from "./rules";
import type { BasicAddressCreated, SuggestedUsername, TestResult, UsernameCheck } from "@outreach/client/api/types";

type Availability = "idle" | "checking" | "available" | "unavailable";

export function BasicSendGridLevel({ available, sendingDomain, configs }: { available: boolean; sendingDomain: string; configs: EmailConfig[] }) {
  const user = useAuth().user;
  const existing = configs.find((config) => config.provider === "sendgrid-basic" && isBasicAddress(config.emailAddress, sendingDomain));
  const [first, setFirst] = useState(user?.firstName ?? "");
  const [last, setLast] = useState(user?.lastName ?? "");
  const [prefix, setPrefix] = useState("");
  const [replyTo, setReplyTo] = useState("");
  // The last answer, for the username it was about; what the user sees is derived from it.
  const [checked, setChecked] = useState<{ username: string; available: boolean; reason: string | null } | null>(null);
  const availability: Availability = prefix.length < USERNAME_CHECK_MIN ? "idle" : checked?.username !== prefix ? "checking" : checked.available ? "available" : "unavailable";
  const reason = checked?.reason ?? null;

  useEffect(() => {
    if (prefix.length < USERNAME_CHECK_MIN) return;
    const timer = window.setTimeout(() => {
      requestJson<UsernameCheck>("POST", "/api/user/check-username", { username: prefix })
        .then((answer) => setChecked({ username: prefix, available: answer.available, reason: answer.reason ?? null }))
        // The check is advice: when it fails, creating the address decides.
        .catch(() => setChecked({ username: prefix, available: true, reason: null }));
    }, USERNAME_CHECK_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [prefix]);

  const suggest = useApiMutation({
    mutationFn: () => requestJson<SuggestedUsername>("GET", "/api/user/suggest-username"),
    failure: { title: "No suggestion", description: "Please choose a username" },
    onSuccess: (answer) => setPrefix(answer.username),
  });

  const creating = useApiMutation({
    mutationFn: () => requestJson<BasicAddressCreated>("POST", "/api/sendgrid/create-basic-address", { firstName: first, lastName: last, emailPrefix: prefix, replyTo: replyTo || null }),
    success: (answer) => ({ title: "Address Created Successfully!", description: `${answer.emailAddress} is ready to send.` }),
    failure: { title: "Error Creating Address", description: "Failed to create SendGrid address. Please try again." },
    invalidates: [CONFIGS_KEY],
    // The name is taken now: the field starts over rather than showing it as available.
    onSuccess: () => setPrefix(""),
  });

  const create = () => {
    if (!first.trim() || !last.trim() || !prefix.trim()) {
      toast({ title: "Missing Information", description: "Please enter your first name, last name and email username.", variant: "destructive" });
      return;
    }
    if (!validUsername(prefix)) {
      toast({ title: "Invalid Username", description: USERNAME_RULE, variant: "destructive" });
      return;
    }
    creating.mutate();
  };

  const testing = useApiMutation({
    mutationFn: (address: string) => requestJson<TestResult>("POST", "/api/sendgrid/send-test", { emailPrefix: address.split("@")[0] }),
    success: (answer) =>
      answer.success
        ? { title: "Test Email Sent Successfully!", description: `From ${answer.fromEmail} to ${user?.email ?? "you"}.` }
        : { title: "Test Email Failed", description: answer.message, variant: "destructive" },
    failure: { title: "Test Email Failed", description: "Failed to send test email. Please try again." },
  });
  const busy = creating.isPending || testing.isPending;

  if (!available && !existing) {
    return (
      <p className="text-sm text-slate-700" data-testid="basic-unavailable">
        Basic addresses are not available: the administrator has not connected this instance's SendGrid account. Use Gmail, your own SendGrid key (Level 3) or SMTP.
      </p>
    );
  }

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700">Get an address on <strong>{sendingDomain}</strong>, sent through this instance's SendGrid account. No setup on your side.</p>
      {existing ? (
        <p data-testid="basic-address" className="rounded-md bg-green-50 p-3 text-sm text-green-800">Your address: <strong>{existing.emailAddress}</strong></p>
      ) : null}
      <form aria-label="Basic address" className="grid gap-3 sm:grid-cols-2" onSubmit={(event) => { event.preventDefault(); create(); }}>
        <TextField label="First name" value={first} onChange={(event) => setFirst(event.target.value)} />
        <TextField label="Last name" value={last} onChange={(event) => setLast(event.target.value)} />
        <div>
          <TextField label={`Email username (@${sendingDomain})`} value={prefix} onChange={(event) => setPrefix(event.target.value.trim())} />
          <p aria-live="polite" className="mt-1 text-xs" data-testid="username-availability">
            {availability === "checking" ? <span className="text-slate-500">Checking...</span> : null}
            {availability === "available" ? <span className="text-green-700">{prefix}@{sendingDomain} is available</span> : null}
            {availability === "unavailable" ? <span className="text-red-600">{reason ?? "This username is not available"}</span> : null}
          </p>
          <button type="button" className="mt-1 text-xs underline" onClick={() => suggest.mutate()}>Suggest a username</button>
        </div>
        <TextField label="Reply-To (optional)" type="email" value={replyTo} placeholder={user?.email ?? ""} onChange={(event) => setReplyTo(event.target.value)} />
        <div className="sm:col-span-2 flex gap-2">
          <Button type="submit" disabled={busy || availability === "unavailable"}>Create Address</Button>
          <Button type="button" variant="outline" disabled={busy || !existing} onClick={() => existing && testing.mutate(existing.emailAddress)}>Send Test</Button>
        </div>
      </form>
    </div>
  );
}
