//! The spam check of the pre-launch check (issue 81): the campaign's first message, rendered for one real recipient
//! exactly as it would be sent, scored by SpamAssassin when the server has it (`deliverability.spamassassin`), else
//! by the built-in checks. A score of 5 or more is SpamAssassin's own threshold for spam: step 6 then asks the user
//! to confirm before launching.

mod assassin;
pub mod report;
mod rules;

use crate::platform::config::Settings;
use crate::sending::compose::Composed;

pub use assassin::parse_report;
pub use report::{ENGINE_BUILTIN, ENGINE_SPAMASSASSIN, SPAM_THRESHOLD, SpamCheck, SpamRule};
pub use rules::builtin_check;

/// Scores a composed message: with SpamAssassin when configured and present (its local rules: no network tests),
/// else with the built-in checks. SpamAssassin failing or timing out falls back to the built-in checks, logged.
pub async fn check_message(settings: &Settings, composed: &Composed) -> SpamCheck {
    // The same message scores the same: a pre-launch check asked again (step 6 reloads it) answers at once.
    let key = cache_key(settings, composed);
    if let Some(check) = CACHE
        .lock()
        .expect("the spam check cache is never poisoned")
        .get(&key)
    {
        return check.clone();
    }
    let check = score_message(settings, composed).await;
    let mut cache = CACHE
        .lock()
        .expect("the spam check cache is never poisoned");
    if cache.len() >= CACHE_ENTRIES {
        cache.clear();
    }
    cache.insert(key, check.clone());
    check
}

/// Checks kept, by message; all are dropped when it is full.
const CACHE_ENTRIES: usize = 512;

/// Checks by the hash of their message.
type Checks = std::collections::HashMap<[u8; 32], SpamCheck>;

static CACHE: std::sync::LazyLock<std::sync::Mutex<Checks>> =
    std::sync::LazyLock::new(Default::default);

/// What a check depends on: the engine setting and the message's addresses, subject, headers and parts.
fn cache_key(settings: &Settings, composed: &Composed) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut hash = Sha256::new();
    for part in [
        settings.deliverability.spamassassin.as_str(),
        &composed.from_name,
        &composed.from_email,
        composed.reply_to.as_deref().unwrap_or_default(),
        &composed.to_email,
        &composed.subject,
        &composed.body,
        &composed.html,
        &composed.text,
        &composed.message_id,
    ] {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    for (name, value) in &composed.headers {
        hash.update(name.as_bytes());
        hash.update([0]);
        hash.update(value.as_bytes());
        hash.update([0]);
    }
    hash.finalize().into()
}

/// [`check_message`] without the cache.
async fn score_message(settings: &Settings, composed: &Composed) -> SpamCheck {
    let raw = match crate::sending::mime::render(composed, chrono::Utc::now()) {
        Ok(rendered) => rendered.text,
        Err(error) => {
            tracing::warn!(%error, "spam check: the message cannot be rendered");
            return builtin_check(composed).sorted();
        }
    };
    if let Some(program) = assassin::program(&settings.deliverability.spamassassin) {
        match assassin::score(&program, &raw, settings.deliverability.timeout_seconds).await {
            Ok(check) => return check.sorted(),
            Err(error) => {
                tracing::warn!(%error, program = %program.display(), "SpamAssassin did not score the message")
            }
        }
    }
    builtin_check(composed).sorted()
}

/// The spam check of a planned launch: its first message (the template's own subject and body) rendered for the
/// first chosen business with an address, from the campaign's first sender (else the local outbox's address), with
/// the campaign's plain-text and tracking settings. None when nobody chosen has an address.
pub async fn check_launch_message(
    ctx: &crate::Context,
    user: &crate::accounts::User,
    planned: &crate::sending::launch_check::Planned,
) -> crate::platform::db::StoreResult<Option<SpamCheck>> {
    use crate::sending::compose::{Envelope, compose};
    let Some((business, to_email)) = planned.businesses.iter().find_map(|business| {
        crate::sending::launch::valid_address(business.email.as_deref()).map(|to| (business, to))
    }) else {
        return Ok(None);
    };
    let db = &ctx.db;
    let Some(campaign) = db
        .campaigns()
        .find_campaign(planned.campaign_id, user.id)
        .await?
    else {
        return Ok(None);
    };
    let Some((subject, body)) = db
        .campaigns()
        .template_content(planned.template_id, user.id)
        .await?
    else {
        return Ok(None);
    };
    let recipient = db
        .discovery()
        .recipients(
            &[business.id],
            user.id,
            crate::writing::icebreaker::language_of(&body),
            crate::platform::clock::date_of(ctx.now_ms()),
        )
        .await?
        .remove(&business.id)
        .unwrap_or_default();
    let (from_name, from_email, reply_to) = match planned.senders.first() {
        Some(config) => (
            config.send_from_name.clone(),
            config.send_from.clone(),
            config.reply_to.clone(),
        ),
        None => (
            user.full_name(),
            format!("outbox@{}", ctx.settings.sending_domain()),
            Some(user.email.clone()),
        ),
    };
    let from_name = campaign.email_from_name.clone().unwrap_or(from_name);
    let reply_to = campaign.reply_to.clone().or(reply_to);
    // A token of its own for the check (no message has it), the same for the same launch, so the same message is
    // scored once (see `check_message`).
    let token = crate::platform::security::sign(
        &ctx.settings.security.secret_key,
        "spam-check",
        &format!(
            "{}/{}/{}",
            planned.campaign_id, planned.template_id, business.id
        ),
    )
    .chars()
    .filter(char::is_ascii_alphanumeric)
    .take(24)
    .collect::<String>();
    let envelope = Envelope {
        from_name: &from_name,
        from_email: &from_email,
        reply_to: reply_to.as_deref(),
        to_email: &to_email,
        postal_address: user.postal_address.as_deref().unwrap_or_default(),
        token: &token,
        in_reply_to: None,
        thread_start: None,
        open_pixel: campaign.track_opens,
        track_clicks: campaign.track_clicks,
        plain_text: campaign.plain_text,
    };
    let composed = compose(&ctx.settings, &envelope, &subject, &body, &recipient);
    Ok(Some(check_message(&ctx.settings, &composed).await))
}
