//! A sender opened for one send batch: the local outbox, an SMTP session, the Gmail API or SendGrid. Its stored
//! credential is decrypted once when it opens, and it hands messages over in order until told to pause.

use crate::Settings;
use crate::platform::config::Secret;
use crate::platform::security::decrypt_secret;
use crate::sending::compose::Composed;
use crate::sending::mail_apis::{Gmail, SendGrid};
use crate::sending::senders::{EmailConfig, Provider};
use crate::sending::smtp::{SmtpServer, SmtpSession};
use crate::sending::{Handoff, SendError, next_connection_id};

pub enum Sender {
    /// Nothing leaves the machine: the message row keeps what would have gone out.
    Outbox,
    /// One connection for the batch, with PIPELINING when the server offers it.
    Smtp(Box<SmtpSession>),
    /// The access token is refreshed on the first send (and again on a 401).
    Gmail {
        gmail: Gmail,
        token: Option<Secret>,
    },
    SendGrid(SendGrid),
}

impl Sender {
    /// The sender of `config` (None: the local outbox).
    pub fn open(config: Option<&EmailConfig>, settings: &Settings) -> Result<Self, SendError> {
        let Some(config) = config else {
            return Ok(Sender::Outbox);
        };
        Ok(match config.provider {
            Provider::Outbox => Sender::Outbox,
            Provider::Smtp => Sender::Smtp(Box::new(SmtpSession::new(SmtpServer::from_config(
                config, settings,
            )?))),
            Provider::Gmail => Sender::Gmail {
                gmail: Gmail::of(&settings.google, stored_secret(settings, config)?),
                token: None,
            },
            // Branded senders use the user's own key, basic addresses the operator's.
            Provider::SendGridCustom => Sender::SendGrid(SendGrid {
                api_url: settings.sendgrid.api_url.clone(),
                api_key: stored_secret(settings, config)?,
            }),
            Provider::SendGridBasic => Sender::SendGrid(SendGrid {
                api_url: settings.sendgrid.api_url.clone(),
                api_key: settings.sendgrid.api_key.clone(),
            }),
        })
    }

    /// Hands messages over in order; one result per message attempted. A run ends before the next message once
    /// `pause` says so, and after a message that stopped the sender (deferred, unreachable, revoked, or with no
    /// answer): nothing after the last result was handed over, so the rest can wait in the queue.
    /// `handoff` hears of each message before its content goes (the outbox hands nothing over).
    pub async fn send_all(
        &mut self,
        messages: &[Composed],
        pause: &(dyn Fn() -> bool + Sync),
        handoff: &mut impl Handoff,
    ) -> Vec<Result<(), SendError>> {
        if let Sender::Smtp(session) = self {
            return session.send_recorded(messages, pause, handoff).await;
        }
        // A mail API takes one message per request, one request at a time: one connection in effect.
        let connection = next_connection_id();
        let mut results: Vec<Result<(), SendError>> = Vec::with_capacity(messages.len());
        for (index, message) in messages.iter().enumerate() {
            if !results.is_empty() && pause() {
                break;
            }
            // Only the message just before can have been refused since the last hand-over.
            let not_taken = index
                .checked_sub(1)
                .filter(|&before| results[before].is_err())
                .into_iter()
                .collect();
            if !matches!(self, Sender::Outbox)
                && let Err(reason) = handoff.handing(index, connection, not_taken).await
            {
                results.push(Err(SendError::Unreachable(format!(
                    "the hand-over could not be recorded: {reason}"
                ))));
                break;
            }
            let outcome = self.send_one(message).await;
            let goes_on = matches!(
                outcome,
                Ok(()) | Err(SendError::Refused(_) | SendError::Invalid(_))
            );
            results.push(outcome);
            if !goes_on {
                break;
            }
        }
        results
    }

    /// One message, now.
    async fn send_one(&mut self, message: &Composed) -> Result<(), SendError> {
        match self {
            Sender::Outbox => Ok(()),
            Sender::Gmail { gmail, token } => gmail.send(token, message).await.map(|_| ()),
            Sender::SendGrid(sendgrid) => sendgrid.send(message).await.map(|_| ()),
            Sender::Smtp(session) => session
                .send_all(std::slice::from_ref(message), &|| false)
                .await
                .pop()
                .unwrap_or_else(|| {
                    Err(SendError::Unreachable(
                        "the SMTP server took nothing".into(),
                    ))
                }),
        }
    }

    /// Says goodbye to an SMTP server; the other senders hold no connection.
    pub async fn close(&mut self) {
        if let Sender::Smtp(session) = self {
            session.close().await;
        }
    }
}

fn stored_secret(settings: &Settings, config: &EmailConfig) -> Result<Secret, SendError> {
    config
        .secret
        .as_deref()
        .and_then(|stored| decrypt_secret(&settings.security.secret_key, stored))
        .ok_or_else(|| {
            SendError::Refused(
                "the sender's stored credential cannot be read; set the sender up again".into(),
            )
        })
}
