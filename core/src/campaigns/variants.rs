//! A/B variants of a template's steps (issue 81): the template's own subject and body (or follow-up n's) are
//! variant A of the step; `variants: [{subject, body}]` adds B to E, so a step holds 2 to 5. Validated like the
//! template itself (a subject, a body, known variables only), each refusal naming its field; stored per step.

use crate::campaigns::CampaignsStore;
use crate::campaigns::personalise::{html_text, sanitize_html};
pub use crate::campaigns::templates::{Variant, VariantInput};
use crate::campaigns::templates::{check_groups, check_variables};
use crate::platform::db::{BeginWrite, StoreResult};
use crate::platform::queries::*;
use crate::{on_db, on_writer};

/// A step holds at most this many variants, A included.
pub const MAX_VARIANTS: usize = 5;

/// A variant refused: the field (`variants[1].subject`) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct VariantError {
    pub field: String,
    pub message: String,
}

/// Validates a step's extra variants (B onwards) and sanitises their bodies; nothing is stored on a refusal.
pub fn validate_variants(inputs: &[VariantInput]) -> Result<Vec<Variant>, VariantError> {
    if inputs.len() > MAX_VARIANTS - 1 {
        return Err(VariantError {
            field: "variants".into(),
            message: format!(
                "A step has at most {MAX_VARIANTS} variants: the template's own and {} more",
                MAX_VARIANTS - 1
            ),
        });
    }
    inputs
        .iter()
        .enumerate()
        .map(|(index, input)| {
            let refuse = |name: &str, message: String| VariantError {
                field: format!("variants[{index}].{name}"),
                message,
            };
            let subject = input
                .subject
                .as_deref()
                .unwrap_or_default()
                .trim()
                .to_string();
            let body = sanitize_html(input.body.as_deref().unwrap_or_default());
            if subject.is_empty() {
                return Err(refuse("subject", "Subject is required".into()));
            }
            if html_text(&body).trim().is_empty() {
                return Err(refuse("body", "Email body is required".into()));
            }
            check_variables(&subject).map_err(|error| refuse("subject", error.to_string()))?;
            check_variables(&body).map_err(|error| refuse("body", error.to_string()))?;
            check_groups(&body).map_err(|error| refuse("body", error.to_string()))?;
            Ok(Variant { subject, body })
        })
        .collect()
}

/// The letter of a variant number (0 is A).
pub fn letter(variant: i32) -> char {
    char::from(b'A' + u8::try_from(variant.clamp(0, 25)).unwrap_or(0))
}

impl CampaignsStore<'_> {
    /// A template's extra variants of every step: (step, variant, subject, body), in order.
    pub async fn template_variants(
        &self,
        template_id: i64,
    ) -> StoreResult<Vec<(i32, i32, String, String)>> {
        let sql = VARIANT_LIST.sql(self);
        on_db!(self, pool => sqlx::query_as(sql).bind(template_id).fetch_all(pool).await)
    }

    /// The extra variants of the first email of each of a user's templates, by template.
    pub async fn first_variants_of_user(
        &self,
        user_id: i64,
    ) -> StoreResult<std::collections::HashMap<i64, Vec<Variant>>> {
        let sql = VARIANT_OF_USER.sql(self);
        let rows: Vec<(i64, String, String)> =
            on_db!(self, pool => sqlx::query_as(sql).bind(user_id).fetch_all(pool).await)?;
        let mut by_template: std::collections::HashMap<i64, Vec<Variant>> = Default::default();
        for (template_id, subject, body) in rows {
            by_template
                .entry(template_id)
                .or_default()
                .push(Variant { subject, body });
        }
        Ok(by_template)
    }

    /// Replaces a step's extra variants (an empty list leaves the step with A alone).
    pub async fn replace_variants(
        &self,
        template_id: i64,
        step: i32,
        variants: &[Variant],
    ) -> StoreResult<()> {
        let (delete, insert) = (VARIANT_DELETE_STEP.sql(self), VARIANT_INSERT.sql(self));
        on_writer!(self, pool => {
            let mut tx = pool.begin_write().await?;
            sqlx::query(delete).bind(template_id).bind(step).execute(&mut *tx).await?;
            for (index, variant) in variants.iter().enumerate() {
                sqlx::query(insert)
                    .bind(template_id)
                    .bind(step)
                    .bind(index as i32 + 1)
                    .bind(&variant.subject)
                    .bind(&variant.body)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    /// One extra variant's subject and body, for the template's owner.
    pub async fn variant_content(
        &self,
        template_id: i64,
        step: i32,
        variant: i32,
        user_id: i64,
    ) -> StoreResult<Option<(String, String)>> {
        let sql = VARIANT_CONTENT.sql(self);
        on_db!(self, pool => sqlx::query_as(sql)
            .bind(template_id).bind(step).bind(variant).bind(user_id)
            .fetch_optional(pool).await)
    }

    /// How many variants each step of a template has with its extra ones (steps with none are absent: they have A).
    pub async fn variant_counts(
        &self,
        template_id: i64,
    ) -> StoreResult<std::collections::HashMap<i32, i32>> {
        let sql = VARIANT_COUNTS.sql(self);
        let rows: Vec<(i32, i64)> =
            on_db!(self, pool => sqlx::query_as(sql).bind(template_id).fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|(step, extra)| (step, 1 + extra as i32))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(subject: &str, body: &str) -> VariantInput {
        VariantInput {
            subject: Some(subject.into()),
            body: Some(body.into()),
        }
    }

    #[test]
    fn variants_are_validated_with_their_field_named() {
        let fine =
            validate_variants(&[input(" Quick question ", "<p>Hi {{businessName}}</p>")]).unwrap();
        assert_eq!(fine[0].subject, "Quick question");
        let too_many = vec![input("s", "<p>b</p>"); 5];
        assert_eq!(validate_variants(&too_many).unwrap_err().field, "variants");
        assert_eq!(validate_variants(&too_many[..4]).unwrap().len(), 4);
        let empty =
            validate_variants(&[input("s", "<p>b</p>"), input(" ", "<p>b</p>")]).unwrap_err();
        assert_eq!(
            (empty.field.as_str(), empty.message.as_str()),
            ("variants[1].subject", "Subject is required")
        );
        let unknown = validate_variants(&[input("s", "<p>Hi {{firstName}}</p>")]).unwrap_err();
        assert_eq!(unknown.field, "variants[0].body");
        assert!(
            unknown
                .message
                .starts_with("Unknown variable {{firstName}}"),
            "{unknown}"
        );
        assert_eq!(
            validate_variants(&[input("Hi {{nope}}", "<p>b</p>")])
                .unwrap_err()
                .field,
            "variants[0].subject"
        );
        assert_eq!(letter(0), 'A');
        assert_eq!(letter(4), 'E');
    }
}
