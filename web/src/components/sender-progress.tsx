/** A campaign's senders as its progress lists them (issue 79): for each mailbox of its pool (and any other its
 * threads are on), what it sent and what waits on it, today's cap and whether it sends now, with why not. Step 6 of
 * the builder and the campaign's details page both show it. */
import type { CampaignProgress } from "@outreach/client/api/types";

type SenderRow = CampaignProgress["senders"][number];

const STATES: Record<SenderRow["state"], string> = {
  active: "Sending",
  at_cap: "At today's cap",
  ramping: "Warming up",
  out: "Out of rotation",
};

/** One line of a sender's standing: its state and, where it has one, why. */
export function senderStateText(sender: Pick<SenderRow, "state" | "reason">): string {
  return sender.reason ? `${STATES[sender.state]}: ${sender.reason}` : STATES[sender.state];
}

export function SenderProgressList({ senders }: { senders: SenderRow[] }) {
  if (senders.length === 0) return null;
  return (
    <table aria-label="Senders" data-testid="sender-progress" className="mt-2 w-full text-left text-sm">
      <thead className="text-xs text-slate-500">
        <tr>
          <th className="py-1 pr-2 font-medium">Sender</th>
          <th className="py-1 pr-2 font-medium">Sent</th>
          <th className="py-1 pr-2 font-medium">Waiting</th>
          <th className="py-1 pr-2 font-medium">Today</th>
          <th className="py-1 font-medium">State</th>
        </tr>
      </thead>
      <tbody>
        {senders.map((sender) => (
          <tr key={sender.emailConfigId} data-state={sender.state} className="border-t border-slate-100 align-top">
            <td className="py-1 pr-2">
              {sender.address}
              {sender.inPool ? null : <span className="block text-xs text-slate-500">no longer one of this campaign's senders</span>}
            </td>
            <td className="py-1 pr-2">{sender.sent}</td>
            <td className="py-1 pr-2">{sender.waiting}</td>
            <td className="py-1 pr-2">
              {sender.sentToday} of {sender.capToday}
            </td>
            <td className={`py-1 ${sender.state === "out" ? "text-red-700" : sender.state === "at_cap" ? "text-amber-700" : "text-slate-700"}`}>
              {senderStateText(sender)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
