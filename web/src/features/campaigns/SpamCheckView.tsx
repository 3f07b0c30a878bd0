/** The spam check of the pre-launch check (issue 81): the first message's score (SpamAssassin's when the server has
 * it, else the built-in checks) and the rules that fired. At 5 points or more it is spam to SpamAssassin: the launch
 * dialog then asks the user to confirm. */
import type { SpamCheck } from "@outreach/client/api/types";

/** SpamAssassin's threshold. */
export const SPAM_THRESHOLD = 5;

export function isSpam(check: SpamCheck | null | undefined): boolean {
  return check != null && check.score >= SPAM_THRESHOLD;
}

export function SpamCheckView({ check }: { check: SpamCheck }) {
  const engine = check.engine === "spamassassin" ? "SpamAssassin" : "the built-in checks";
  const fired = check.rules.filter((rule) => rule.points !== 0);
  return (
    <div data-testid="spam-check" className={`mt-2 rounded-md border p-3 text-sm ${isSpam(check) ? "border-red-300 bg-red-50" : "border-slate-200"}`}>
      <p>
        <strong>Spam score: {check.score.toFixed(1)}</strong> of {SPAM_THRESHOLD} by {engine}
        {isSpam(check) ? ": this email looks like spam." : check.score <= 1 ? ": looks clean." : "."}
      </p>
      {fired.length > 0 ? (
        <ul className="mt-1 space-y-0.5 text-xs text-slate-700" aria-label="Spam rules that fired">
          {fired.map((rule) => (
            <li key={rule.name}>
              <span className="font-mono">{rule.points.toFixed(1)}</span> <span className="font-mono">{rule.name}</span>: {rule.description}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
