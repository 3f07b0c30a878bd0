/** The campaign header of both campaign pages (B §2.10, §2.11): name, dates, business type, area and radius in km,
 * status badge; and their not-found state. */
import type { ReactNode } from "react";
import { CampaignControls } from "../../components/campaign-controls";
import { Card } from "../../components/ui/card";
import { Badge } from "../../components/ui/badge";
import { formatDate } from "../../lib/format";
import type { CampaignInfo } from "./api";

export function CampaignHeader({ campaign, created = false }: { campaign: CampaignInfo; created?: boolean }) {
  return (
    <header className="flex flex-wrap items-start justify-between gap-3">
      <div>
        <h1 className="text-2xl font-bold">{campaign.name}</h1>
        <p className="text-sm text-slate-600">
          {created ? <>Created {formatDate(campaign.createdAt)} · </> : null}
          {campaign.businessType ?? "Any business"} · {campaign.geographicArea ?? "No area"} · {campaign.radiusKm} km radius
        </p>
        {campaign.statusReason ? <p className="text-sm text-amber-800">{campaign.statusReason}</p> : null}
      </div>
      <div className="flex flex-col items-end gap-2">
        <Badge value={campaign.status} />
        <CampaignControls campaignId={campaign.id} status={campaign.status} />
      </div>
    </header>
  );
}

export function NotFound({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-xl p-8">
      <Card>
        <div className="flex flex-col items-center gap-3 py-6 text-center">
          <h1 className="text-xl font-semibold">{title}</h1>
          <p className="text-slate-600">{text}</p>
          {children}
        </div>
      </Card>
    </main>
  );
}
