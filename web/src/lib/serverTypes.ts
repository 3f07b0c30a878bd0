/** Shapes of server data that more than one feature reads. */

export interface SentEvent {
  eventType: string;
  occurredAt: number;
  url: string | null;
  machine: boolean;
  manual: boolean;
}

export interface SentEmail {
  id: number;
  campaignId: number | null;
  businessId: number | null;
  step: number;
  toEmail: string;
  subject: string;
  body: string | null;
  status: string;
  sentAt: number | null;
  createdAt: number;
  openedAt: number | null;
  repliedAt: number | null;
  deliveredAt: number | null;
  clickedAt: number | null;
  bouncedAt: number | null;
  bounceReason: string | null;
  spamReportedAt: number | null;
  unsubscribedAt: number | null;
  events: SentEvent[];
}
