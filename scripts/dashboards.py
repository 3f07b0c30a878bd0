#!/usr/bin/env python3
"""Writes the Grafana dashboards of grafana/dashboards/ (provisioned by the compose `monitoring` profile) from the
panel lists below: overview, sending, tracking, queue, discovery and AI. Every query names only metrics the app
exports (core/src/platform/telemetry.rs and the HTTP and job metrics); tests/serve.rs checks them against /metrics.
Run it after changing a panel: `python3 scripts/dashboards.py`.
"""
import json
import os

OUT = os.path.join(os.path.dirname(__file__), "..", "grafana", "dashboards")
DATASOURCE = {"type": "prometheus", "uid": "prometheus"}


def panel(title, exprs, unit="short", legend=None, kind="timeseries", description=""):
    """A panel: one query per expression, `legend` its legend format (one per expression or one for all)."""
    exprs = [exprs] if isinstance(exprs, str) else exprs
    legends = legend if isinstance(legend, list) else [legend] * len(exprs)
    return {
        "title": title,
        "type": kind,
        "description": description,
        "datasource": DATASOURCE,
        "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
        "targets": [
            {"refId": chr(ord("A") + i), "expr": expr, "legendFormat": legends[i] or "__auto", "datasource": DATASOURCE}
            for i, expr in enumerate(exprs)
        ],
    }


def dashboard(uid, title, description, panels):
    """Two panels a row, 8 units high."""
    for i, item in enumerate(panels):
        item["id"] = i + 1
        item["gridPos"] = {"x": (i % 2) * 12, "y": (i // 2) * 8, "w": 12, "h": 8}
    return {
        "uid": uid,
        "title": title,
        "description": description,
        "schemaVersion": 39,
        "version": 1,
        "editable": True,
        "time": {"from": "now-6h", "to": "now"},
        "refresh": "30s",
        "tags": ["outreach"],
        "templating": {"list": []},
        "annotations": {"list": []},
        "links": [{"type": "dashboards", "tags": ["outreach"], "asDropdown": True, "title": "Outreach"}],
        "panels": panels,
    }


SENT_1H = 'sum(increase(outreach_sends_total{outcome="sent"}[1h]))'

DASHBOARDS = {
    "overview": dashboard("outreach-overview", "Outreach overview", "Is the instance healthy? Start here.", [
        panel("Emails sent per minute by provider", 'sum by (provider) (rate(outreach_sends_total{outcome="sent"}[5m])) * 60', legend="{{provider}}"),
        panel("Sender errors (share of hand-overs, 15 min)",
              'sum by (provider) (rate(outreach_sends_total{outcome!="sent"}[15m])) / sum by (provider) (rate(outreach_sends_total[15m]))',
              unit="percentunit", legend="{{provider}}"),
        panel("Bounce and complaint rate (last hour)",
              [f'sum(increase(outreach_email_outcomes_total{{outcome="hard_bounce"}}[1h])) / {SENT_1H}',
               f'sum(increase(outreach_email_outcomes_total{{outcome="spam"}}[1h])) / {SENT_1H}'],
              unit="percentunit", legend=["bounces", "complaints"]),
        panel("Failed jobs per minute by kind", 'sum by (job) (rate(outreach_jobs_total{outcome="failure"}[5m])) * 60', legend="{{job}}"),
        panel("Oldest due job waiting, by kind", "max by (job) (outreach_queue_oldest_job_age_seconds)", unit="s", legend="{{job}}"),
        panel("Since the scheduler's last tick", "time() - max(outreach_scheduler_last_tick_timestamp_seconds)", unit="s", kind="stat"),
        panel("HTTP requests by route", "sum by (route) (rate(outreach_http_requests_total[5m]))", unit="reqps", legend="{{route}}"),
        panel("HTTP errors by route (5xx and 4xx)", 'sum by (route, status) (rate(outreach_http_requests_total{status=~"4xx|5xx"}[5m]))',
              unit="reqps", legend="{{route}} {{status}}"),
        panel("HTTP latency p95 by route",
              "histogram_quantile(0.95, sum by (le, route) (rate(outreach_http_request_duration_seconds_bucket[5m])))",
              unit="s", legend="{{route}}"),
        panel("HTTP latency p50 by route",
              "histogram_quantile(0.5, sum by (le, route) (rate(outreach_http_request_duration_seconds_bucket[5m])))",
              unit="s", legend="{{route}}"),
    ]),
    "sending": dashboard("outreach-sending", "Outreach sending", "Senders, limits and the health of what goes out.", [
        panel("Hand-overs by provider and outcome (per minute)", "sum by (provider, outcome) (rate(outreach_sends_total[5m])) * 60",
              legend="{{provider}} {{outcome}}"),
        panel("Provider errors by provider and kind (per minute)",
              'sum by (provider, outcome) (rate(outreach_sends_total{outcome!="sent"}[5m])) * 60', legend="{{provider}} {{outcome}}"),
        panel("Bounce rate (last hour)", f'sum(increase(outreach_email_outcomes_total{{outcome="hard_bounce"}}[1h])) / {SENT_1H}',
              unit="percentunit", description="Alert at 5%"),
        panel("Complaint rate (last hour)", f'sum(increase(outreach_email_outcomes_total{{outcome="spam"}}[1h])) / {SENT_1H}',
              unit="percentunit", description="Alert at 0.1%"),
        panel("Campaign pauses by reason (last hour)", "sum by (reason) (increase(outreach_campaign_pauses_total[1h]))", legend="{{reason}}"),
        panel("What providers reported (per minute)", "sum by (outcome) (rate(outreach_email_outcomes_total[5m])) * 60", legend="{{outcome}}"),
        panel("Daily cap left today by provider", "max by (provider) (outreach_sender_daily_headroom)", legend="{{provider}}"),
        panel("Active users out of monthly quota", "max(outreach_users_out_of_quota)", kind="stat"),
        panel("Send batch time per sent message, by step",
              'sum by (step) (rate(outreach_send_step_seconds_sum[5m])) / ignoring(step) group_left '
              'sum(rate(outreach_sends_total{outcome="sent"}[5m]))',
              unit="s", legend="{{step}}",
              description="Wall time of each step of the send path, summed over the workers running at once: "
                          "a step that grows (a slot wait, the hand-over record) is where sending waits"),
    ]),
    "tracking": dashboard("outreach-tracking", "Outreach tracking", "Opens, clicks, webhooks and mailboxes.", [
        panel("Tracking events by kind and source (per minute)", "sum by (kind, source) (rate(outreach_tracking_events_total[5m])) * 60",
              legend="{{kind}} {{source}}"),
        panel("Machine share of opens",
              'sum(rate(outreach_tracking_events_total{kind="open",source="machine"}[1h])) / sum(rate(outreach_tracking_events_total{kind="open"}[1h]))',
              unit="percentunit"),
        panel("Webhook requests by endpoint and outcome (per minute)",
              "sum by (endpoint, outcome) (rate(outreach_webhook_requests_total[5m])) * 60", legend="{{endpoint}} {{outcome}}"),
        panel("Mailbox reads by source and outcome (per hour)",
              "sum by (source, outcome) (increase(outreach_inbound_reads_total[1h]))", legend="{{source}} {{outcome}}"),
        panel("Replies, unsubscribes and deliveries (per hour)",
              'sum by (outcome) (increase(outreach_email_outcomes_total{outcome=~"reply|unsubscribe|delivered"}[1h]))', legend="{{outcome}}"),
        panel("Tracking and unsubscribe requests p95", 'histogram_quantile(0.95, sum by (le, route) (rate(outreach_http_request_duration_seconds_bucket{route=~"/t/.*|/unsubscribe"}[5m])))',
              unit="s", legend="{{route}}"),
    ]),
    "queue": dashboard("outreach-queue", "Outreach queue", "Jobs, their failures and the scheduler.", [
        panel("Jobs by kind and outcome (per minute)", "sum by (job, outcome) (rate(outreach_jobs_total[5m])) * 60", legend="{{job}} {{outcome}}"),
        panel("Failed share of jobs by kind (15 min)",
              'sum by (job) (rate(outreach_jobs_total{outcome="failure"}[15m])) / sum by (job) (rate(outreach_jobs_total[15m]))',
              unit="percentunit", legend="{{job}}"),
        panel("Queue depth by kind", "max by (job) (outreach_queue_depth)", legend="{{job}}"),
        panel("Oldest due job waiting, by kind", "max by (job) (outreach_queue_oldest_job_age_seconds)", unit="s", legend="{{job}}"),
        panel("Job duration p95 by kind", "histogram_quantile(0.95, sum by (le, job) (rate(outreach_job_duration_seconds_bucket[5m])))",
              unit="s", legend="{{job}}"),
        panel("Jobs enqueued by kind (per minute)", "sum by (job) (rate(outreach_jobs_enqueued_total[5m])) * 60", legend="{{job}}"),
        panel("Scheduler ticks (per hour)", "sum(increase(outreach_scheduler_ticks_total[1h]))"),
        panel("Since the scheduler's last tick", "time() - max(outreach_scheduler_last_tick_timestamp_seconds)", unit="s", kind="stat"),
    ]),
    "discovery": dashboard("outreach-discovery", "Outreach discovery", "Searches, enrichment and automations.", [
        panel("Search chunks by source and outcome (per hour)", "sum by (source, outcome) (increase(outreach_search_chunks_total[1h]))",
              legend="{{source}} {{outcome}}"),
        panel("Enrichments by outcome (per hour)", "sum by (outcome) (increase(outreach_enrichments_total[1h]))", legend="{{outcome}}"),
        panel("Automation runs by outcome (per day)", "sum by (outcome) (increase(outreach_automation_runs_total[1d]))", legend="{{outcome}}"),
        panel("Businesses found and emailed per automation run",
              ["sum(rate(outreach_automation_businesses_found_sum[1d])) / sum(rate(outreach_automation_businesses_found_count[1d]))",
               "sum(rate(outreach_automation_businesses_emailed_sum[1d])) / sum(rate(outreach_automation_businesses_emailed_count[1d]))"],
              legend=["found", "emailed"]),
    ]),
    "ai": dashboard("outreach-ai", "Outreach AI", "The writer, the reply reader and automatic answers.", [
        panel("AI calls by provider, purpose and outcome (per hour)", "sum by (provider, purpose, outcome) (increase(outreach_ai_calls_total[1h]))",
              legend="{{provider}} {{purpose}} {{outcome}}"),
        panel("AI latency p95 by provider and purpose",
              "histogram_quantile(0.95, sum by (le, provider, purpose) (rate(outreach_ai_call_seconds_bucket[15m])))", unit="s",
              legend="{{provider}} {{purpose}}"),
        panel("Replies read by classifier, sentiment and action (per hour)",
              "sum by (classifier, sentiment, action) (increase(outreach_replies_classified_total[1h]))",
              legend="{{classifier}} {{sentiment}} {{action}}"),
        panel("Reply reading p95 by classifier",
              "histogram_quantile(0.95, sum by (le, classifier) (rate(outreach_reply_classification_seconds_bucket[15m])))", unit="s",
              legend="{{classifier}}"),
        panel("Answers sent by mode (per hour)", "sum by (mode) (increase(outreach_auto_replies_sent_total[1h]))", legend="{{mode}}"),
        panel("Answers waiting for approval", "max(outreach_reply_approvals_waiting)", kind="stat"),
    ]),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, board in DASHBOARDS.items():
        with open(os.path.join(OUT, f"{name}.json"), "w", encoding="utf-8") as file:
            json.dump(board, file, indent=2)
            file.write("\n")


if __name__ == "__main__":
    main()
