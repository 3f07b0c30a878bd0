#!/usr/bin/env bash
# PostgreSQL's own time for a sent message, without the pipeline around it: the app's claim and sent-mark statements
# (core/queries/outgoing/claim_batch.pg.sql and sent_batch.pg.sql, read from the repository) over one campaign's
# queued messages, in batches as a send job writes them (each its own transaction), timed by psql. Each variant runs
# on a database made afresh with every migration. The variants take the message's row apart, to tell which part of
# the server's time is which (docs/benchmarks.md, Sending):
#   app         the statements as the app runs them
#   triggers    the same with the table's triggers off
#   indexes     the same with seven of the nine indexes dropped (the primary key and the token's stay)
#   narrow      the app's claim, and the sent mark as a narrow delivery row that deletes the claim, writing nothing to
#               sent_emails (a model the app does not have: the size of the change S1 would need)
# Usage: scripts/pg-send-costs.sh [ADMIN_URL] [VARIANT...]; MESSAGES (default 20,000) and BATCH (200) set the size.
set -euo pipefail

admin_url="${1:-postgres://postgres@127.0.0.1:5432/postgres}"
shift || true
variants=("${@:-app triggers indexes narrow}")
read -r -a variants <<< "${variants[*]}"
messages="${MESSAGES:-20000}"
batch="${BATCH:-200}"
repository="$(cd "$(dirname "$0")/.." && pwd)"
database=outreach_send_costs
url="${admin_url%/*}/$database"

# A statement file without its comment lines, as one line for PREPARE.
statement() {
  grep -v '^[[:space:]]*--' "$repository/core/queries/outgoing/$1" | tr '\n' ' '
}

fresh_database() {
  PGOPTIONS="-c client_min_messages=warning" psql -q "$admin_url" -c "drop database if exists $database" \
    -c "create database $database"
  for migration in "$repository"/migrations/postgres/*.sql; do
    psql -q -v ON_ERROR_STOP=1 "$url" -f "$migration" >/dev/null
  done
  psql -q -v ON_ERROR_STOP=1 "$url" >/dev/null <<SQL
insert into users (email, created_at, updated_at) values ('costs@outreach.example', 0, 0);
insert into campaigns (user_id, name, created_at, updated_at) select id, 'costs', 0, 0 from users;
insert into email_templates (user_id, name, subject, body, objective, tone, created_at, updated_at)
select id, 'costs', 's', 'b', 'o', 'friendly', 0, 0 from users;
insert into sent_emails (user_id, to_email, subject, status, created_at, campaign_id, template_id, token)
select u.id, 'owner' || g || '@cafe.example', '', 'queued', 1764000000000, c.id, t.id,
    lpad(to_hex(g), 12, '0') || md5(g::text)
from users u, campaigns c, email_templates t, generate_series(1, $messages) g;
create table deliveries (message bigint primary key, sent_at bigint not null, subject text not null,
    html_body text, text_body text, message_id text, provider text);
create index deliveries_message_id on deliveries (message_id);
vacuum analyze sent_emails;
checkpoint;
SQL
}

# The claim and the sent mark of the variant, prepared as `claim` and `mark` with the app's parameters.
prepared() {
  local claim mark
  claim="$(statement claim_batch.pg.sql)"
  mark="$(statement sent_batch.pg.sql)"
  if [ "$1" = narrow ]; then
    mark="with d as (select * from unnest(\$1::bigint[], \$2::text[], \$3::text[], \$4::text[], \$5::text[], \$6::text[])
      as d (id, subject, html, text, message_id, provider)),
      gone as (delete from send_claims c using d where c.message = d.id returning c.message)
      insert into deliveries (message, sent_at, subject, html_body, text_body, message_id, provider)
      select d.id, \$7, d.subject, d.html, d.text, d.message_id, d.provider from d join gone g on g.message = d.id"
  fi
  echo "prepare claim (text, bigint, text) as $claim;"
  echo "prepare mark (bigint[], text[], text[], text[], text[], text[], bigint) as $mark;"
}

# Every batch's claim, then every batch's sent mark (a personalised body of about 2 KB of HTML and 1 KB of text),
# each statement written out by the server and run by \gexec in a transaction of its own.
batches() {
  cat <<SQL
\\timing on
select format('execute claim (%L, 1764000001000, %L)', json_agg(id order by id)::text, 'lease-costs')
from (select id, (row_number() over (order by id) - 1) / $batch as part from sent_emails) ids group by part order by part
\\gexec
select format('execute mark (%L, array_fill(%L::text, array[%s]), array_fill(%L::text, array[%s]),
        array_fill(%L::text, array[%s]), %L, array_fill(%L::text, array[%s]), 1764000002000)',
    array_agg(id order by id), 'A note for your bakery', count(*),
    '<p>' || repeat('Hello, this paragraph is written for your bakery and its neighbourhood. ', 28) || '</p>', count(*),
    repeat('Hello, this paragraph is written for your bakery. ', 20), count(*),
    array_agg('<' || id || '.costs@outreach.example>' order by id), 'smtp', count(*))
from (select id, (row_number() over (order by id) - 1) / $batch as part from sent_emails) ids group by part order by part
\\gexec
SQL
}

for variant in "${variants[@]}"; do
  case "$variant" in
    app | narrow) change="select 1" ;;
    triggers) change="alter table sent_emails disable trigger user" ;;
    indexes) change="drop index sent_emails_user_sent_at, sent_emails_campaign_status, sent_emails_user_to_email,
        sent_emails_campaign_id, sent_emails_template, sent_emails_config, sent_emails_campaign_business_kind_step" ;;
    *) echo "unknown variant: $variant (app, triggers, indexes, narrow)" >&2; exit 2 ;;
  esac
  fresh_database
  psql -q -v ON_ERROR_STOP=1 "$url" -c "$change" >/dev/null
  timings="$( { prepared "$variant"; batches; } | psql -v ON_ERROR_STOP=1 "$url" 2>&1)"
  sent="$(psql -tA "$url" -c "select (select count(*) from sent_emails where status = 'sent') + (select count(*) from deliveries)")"
  [ "$sent" = "$messages" ] || { echo "$variant: $sent of $messages messages marked sent" >&2; exit 1; }
  # The statements timed: a claim or a sent mark each, after the select that wrote them out when psql times that too.
  echo "$timings" | awk -v variant="$variant" -v messages="$messages" -v batches=$(( (messages + batch - 1) / batch )) '
    /^Time:/ { time[++n] = $2 }
    END {
      if (n == 2 * batches + 2) { first_claim = 2; first_mark = batches + 3 }
      else if (n == 2 * batches) { first_claim = 1; first_mark = batches + 1 }
      else { print variant ": " n " statements timed, not " 2 * batches > "/dev/stderr"; exit 1 }
      for (i = 0; i < batches; i++) { claim += time[first_claim + i]; mark += time[first_mark + i] }
      printf "%-9s claim %6.1f µs a message, sent mark %6.1f µs a message\n", variant, claim * 1000 / messages, mark * 1000 / messages
    }'
done
psql -q "$admin_url" -c "drop database if exists $database"
