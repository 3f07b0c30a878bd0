//! How a send batch writes one message: who it is from and where replies go, the thread a follow-up answers, and
//! the personalised, composed message (or why it cannot be written).

use std::collections::HashMap;

use crate::Context;
use crate::accounts::User;
use crate::campaigns::personalise::Recipient;
use crate::platform::invalid::Invalid;
use crate::sending::compose::{Composed, Envelope, compose};
use crate::sending::control::CampaignSendingSettings;
use crate::sending::messages::{MessageKind, MessageRow};
use crate::sending::senders::EmailConfig;
use crate::sending::sequence::Thread;

/// Subject and body by template, step and A/B variant (none: deleted).
pub(super) type TemplateCache = HashMap<(i64, i32, i32), Option<(String, String)>>;

/// Who a message is from and where its replies go: the campaign's sender name and reply-to address when the user
/// set them in the builder, else the sender's own; the local outbox sends in the user's name from the instance's
/// outbox address, with replies to the user's own email (A §9). It also says whether the campaign's emails carry
/// the open pixel and tracked links, and whether they are plain text.
pub(super) struct SenderIdentity<'a> {
    user: &'a User,
    from_name: String,
    from_email: String,
    reply_to: Option<String>,
    open_pixel: bool,
    track_clicks: bool,
    plain_text: bool,
}

impl<'a> SenderIdentity<'a> {
    pub(super) fn new(
        ctx: &Context,
        user: &'a User,
        config: Option<&EmailConfig>,
        settings: &CampaignSendingSettings,
    ) -> Self {
        let (from_name, from_email, reply_to) = match config {
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
        SenderIdentity {
            user,
            from_name: settings.email_from_name.clone().unwrap_or(from_name),
            from_email,
            reply_to: settings.reply_to.clone().or(reply_to),
            open_pixel: !settings.no_open_pixel,
            track_clicks: !settings.no_click_tracking,
            plain_text: settings.plain_text,
        }
    }
}

/// For a follow-up or an answer in a campaign, the first email whose thread it is in (an empty one when that is
/// gone).
pub(super) fn follow_up_thread(
    message: &MessageRow,
    threads: &HashMap<i64, Thread>,
) -> Option<Thread> {
    match (message.campaign_id, message.business_id) {
        (Some(_), Some(business_id)) if message.kind.in_thread() => {
            Some(threads.get(&business_id).cloned().unwrap_or_default())
        }
        _ => None,
    }
}

/// The message for its recipient: the campaign's template (or, for step n of a campaign, its follow-up n,
/// answering the first email) personalised with the business's details, or the reason it cannot be written.
pub(super) async fn compose_message(
    ctx: &Context,
    message: &MessageRow,
    sender: &SenderIdentity<'_>,
    recipient: &Recipient,
    follow_up: Option<Thread>,
    templates: &mut TemplateCache,
) -> anyhow::Result<Result<Composed, Invalid>> {
    let user = sender.user;
    // A test email may bring its own subject and body instead of a template.
    let (subject, body) = match (message.template_id, &message.html_body) {
        (Some(template_id), _) => {
            let step = match (message.kind, &follow_up) {
                (MessageKind::FollowUp, Some(_)) => message.step,
                _ => 0,
            };
            // Its A/B variant (issue 81); a variant removed since it was drawn sends as A.
            if message.variant > 0
                && let std::collections::hash_map::Entry::Vacant(entry) =
                    templates.entry((template_id, step, message.variant))
            {
                entry.insert(
                    ctx.db
                        .campaigns()
                        .variant_content(template_id, step, message.variant, user.id)
                        .await?,
                );
            }
            let variant = match templates.get(&(template_id, step, message.variant)) {
                Some(Some(_)) => message.variant,
                _ => 0,
            };
            if let std::collections::hash_map::Entry::Vacant(entry) =
                templates.entry((template_id, step, 0))
            {
                entry.insert(if step > 0 {
                    ctx.db
                        .followups()
                        .follow_up_content(template_id, step, user.id)
                        .await?
                } else {
                    ctx.db
                        .campaigns()
                        .template_content(template_id, user.id)
                        .await?
                });
            }
            match templates[&(template_id, step, variant)].clone() {
                Some(template) => template,
                None if step > 0 => return Ok(Err("The follow-up was deleted".into())),
                None => return Ok(Err("The template was deleted".into())),
            }
        }
        (None, Some(body)) => (message.subject.clone(), body.clone()),
        (None, None) => return Ok(Err("The message has no template".into())),
    };
    // A follow-up without a subject of its own answers under the first email's.
    let subject = match &follow_up {
        Some(thread) if subject.trim().is_empty() => format!("Re: {}", thread.subject),
        _ => subject,
    };
    let token = message.token.clone().unwrap_or_default();
    let envelope = Envelope {
        from_name: &sender.from_name,
        from_email: &sender.from_email,
        reply_to: sender.reply_to.as_deref(),
        to_email: &message.to_email,
        postal_address: user.postal_address.as_deref().unwrap_or_default(),
        token: &token,
        // A follow-up answers the first email; an answer to a prospect's reply answers that reply, in the thread
        // the first email began.
        in_reply_to: message.in_reply_to.as_deref().or(follow_up
            .as_ref()
            .and_then(|thread| thread.message_id.as_deref())),
        thread_start: follow_up
            .as_ref()
            .and_then(|thread| thread.message_id.as_deref()),
        open_pixel: sender.open_pixel,
        track_clicks: sender.track_clicks,
        plain_text: sender.plain_text,
    };
    Ok(Ok(compose(
        &ctx.settings,
        &envelope,
        &subject,
        &body,
        recipient,
    )))
}
