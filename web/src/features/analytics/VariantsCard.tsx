/** A campaign's A/B variants (issue 81): for each step, each variant's sends, human opens (when tracked), replies,
 * positive replies and the probability it is best on positive replies; the winner with when and why it won, and a
 * button to pick one by hand. Shown only for a campaign whose steps have more than one variant. */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { formatDateTime, percentText } from "../../lib/format";
import { useApiMutation } from "@outreach/client/mutation";
import { requestJson } from "@outreach/client/request";
import type { VariantFigures } from "@outreach/client/api/types";

const variantsKey = (id: string) => `/api/campaigns/${id}/variants`;

/** A step's name: the first email, or follow-up n. */
const stepName = (step: number) => (step === 0 ? "First email" : `Follow-up ${step}`);

export function VariantsCard({ campaignId }: { campaignId: string }) {
  const client = useQueryClient();
  const figures = useQuery<VariantFigures[]>({ queryKey: [variantsKey(campaignId)] });
  const picking = useApiMutation({
    mutationFn: (pick: { step: number; variant: number }) =>
      requestJson<VariantFigures[]>("POST", `/api/campaigns/${campaignId}/variants/winner`, pick),
    success: (_, pick) => ({ title: "Winner picked", description: `Variant ${String.fromCharCode(65 + pick.variant)} sends the rest of ${stepName(pick.step).toLowerCase()}` }),
    failure: { title: "Failed to pick the winner", description: "Please try again" },
    onSuccess: (saved) => client.setQueryData([variantsKey(campaignId)], saved),
  });
  const rows = figures.data ?? [];
  const steps = [...new Set(rows.map((row) => row.step))].filter((step) => rows.filter((row) => row.step === step).length > 1);
  if (steps.length === 0) return null;
  return (
    <Card title="A/B variants">
      {steps.map((step) => {
        const variants = rows.filter((row) => row.step === step);
        const winner = variants.find((row) => row.winner);
        return (
          <section key={step} aria-label={`Variants of the ${stepName(step).toLowerCase()}`} className="mb-4">
            <h3 className="text-sm font-semibold">{stepName(step)}</h3>
            {winner ? (
              <p className="text-sm text-green-800" data-testid="variant-winner">
                Variant {winner.label} won{winner.decidedAt ? ` on ${formatDateTime(winner.decidedAt)}` : ""}: {winner.winnerReason}
              </p>
            ) : (
              <p className="text-sm text-slate-600">No winner yet: one is picked once each variant has enough sends and one is best with 95% probability.</p>
            )}
            <table className="mt-2 w-full text-left text-sm">
              <thead>
                <tr>
                  <th className="p-2">Variant</th>
                  <th className="p-2">Sent</th>
                  <th className="p-2">Opened</th>
                  <th className="p-2">Replied</th>
                  <th className="p-2">Positive</th>
                  <th className="p-2">Chance best</th>
                  <th className="p-2" />
                </tr>
              </thead>
              <tbody>
                {variants.map((row) => (
                  <tr key={row.variant} className="border-t border-slate-100">
                    <td className="p-2 font-medium">{row.label}{row.winner ? " (winner)" : ""}</td>
                    <td className="p-2">{row.sent}</td>
                    <td className="p-2">{row.opened ?? "not tracked"}</td>
                    <td className="p-2">{row.replied}</td>
                    <td className="p-2">{row.positive}</td>
                    <td className="p-2">{percentText(row.probabilityBest * 100)}</td>
                    <td className="p-2">
                      {row.winner ? null : (
                        <Button variant="outline" disabled={picking.isPending} onClick={() => picking.mutate({ step, variant: row.variant })}>
                          Pick {row.label}
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        );
      })}
    </Card>
  );
}
