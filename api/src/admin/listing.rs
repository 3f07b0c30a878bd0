//! Listings in ra-data-simple-rest's dialect: `sort=["field","ASC"]`, `range=[0,24]`, `filter={...}` in,
//! `Content-Range: <resource> 0-24/<total>` out; and the console's errors as API errors.

use axum::Json;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use outreach_core::admin::AdminError;
use outreach_core::admin::listing::{Page, Sortable};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::IntoParams;

use crate::error::{ApiError, ApiResult};

impl From<AdminError> for ApiError {
    fn from(error: AdminError) -> Self {
        match error {
            AdminError::NotFound(message) => ApiError::not_found(message),
            AdminError::Invalid(message) => ApiError::validation(message),
            AdminError::Store(error) => error.into(),
            AdminError::Queue(error) => error.into(),
        }
    }
}

/// A listing's query in ra-data-simple-rest's dialect.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// `["field", "ASC" | "DESC"]`; the resource's newest first when absent.
    sort: Option<String>,
    /// `[first, last]`, inclusive; the first 25 when absent. At most 1,000 rows a page.
    range: Option<String>,
    /// A JSON object: `q` (text to look for) and the resource's own filters.
    filter: Option<String>,
}

/// What a listing asked for, parsed and checked.
pub struct Listing {
    pub page: Page,
    pub first: i64,
    pub filter: Value,
}

impl Listing {
    /// A text filter (`""` when absent).
    pub fn text(&self, name: &str) -> String {
        self.filter[name]
            .as_str()
            .unwrap_or_default()
            .trim()
            .to_string()
    }
}

fn bad_request(code: &'static str, message: &str) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, code, message)
}

impl ListParams {
    /// The page, sorted by one of `sortable`'s fields.
    pub fn listing(&self, sortable: &Sortable) -> ApiResult<Listing> {
        let (first, last) = parse_range(self.range.as_deref())?;
        let (field, descending) = match self.sort.as_deref() {
            None => (None, true),
            Some(sort) => {
                let [field, order]: [String; 2] = serde_json::from_str(sort).map_err(|_| {
                    bad_request("invalid_sort", "sort must be [field, \"ASC\" or \"DESC\"]")
                })?;
                let descending = match order.as_str() {
                    "ASC" => false,
                    "DESC" => true,
                    _ => {
                        return Err(bad_request(
                            "invalid_sort",
                            "sort must be [field, \"ASC\" or \"DESC\"]",
                        ));
                    }
                };
                (Some(field), descending)
            }
        };
        let page = sortable
            .page(field.as_deref(), descending, last - first + 1, first)
            .ok_or_else(|| {
                bad_request("invalid_sort", "This list cannot be sorted by that field")
            })?;
        let filter = match self.filter.as_deref() {
            None => Value::Object(Default::default()),
            Some(text) => serde_json::from_str::<Value>(text)
                .ok()
                .filter(Value::is_object)
                .ok_or_else(|| bad_request("invalid_filter", "filter must be a JSON object"))?,
        };
        Ok(Listing {
            page,
            first,
            filter,
        })
    }
}

/// A page of records with `Content-Range: <resource> first-last/total` (`*/total` style for an empty page).
pub fn listed<T: Serialize>(resource: &str, first: i64, records: Vec<T>, total: i64) -> Response {
    let end = first + records.len().max(1) as i64 - 1;
    let range = format!("{resource} {first}-{end}/{total}");
    let mut response = Json(records).into_response();
    response.headers_mut().insert(
        "content-range",
        HeaderValue::from_str(&range).expect("ASCII"),
    );
    response
}

/// `[0, 24]` → (0, 24); absent → the first 25. At most 1,000 rows a page.
fn parse_range(range: Option<&str>) -> ApiResult<(i64, i64)> {
    let Some(range) = range else {
        return Ok((0, 24));
    };
    let bad = || bad_request("invalid_range", "range must be [first, last]");
    let [first, last]: [i64; 2] = serde_json::from_str(range).map_err(|_| bad())?;
    if first < 0 || last < first || last - first >= 1000 {
        return Err(bad());
    }
    Ok((first, last))
}

#[cfg(test)]
mod tests {
    use super::*;
    use outreach_core::admin::listing::USERS;

    #[test]
    fn ranges_follow_ra_data_simple_rest() {
        assert_eq!(parse_range(None).unwrap(), (0, 24));
        assert_eq!(parse_range(Some("[10,19]")).unwrap(), (10, 19));
        for bad in ["[5,1]", "[-1,3]", "[0,5000]", "nope", "[1]"] {
            assert!(parse_range(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn sorts_and_filters_are_checked() {
        let params = |sort: &str, filter: &str| ListParams {
            sort: Some(sort.into()),
            range: Some("[0,9]".into()),
            filter: Some(filter.into()),
        };
        let listing = params(r#"["email","ASC"]"#, r#"{"q":" ada "}"#)
            .listing(&USERS)
            .unwrap();
        assert_eq!(listing.page.order, "u.email asc, u.id asc");
        assert_eq!(listing.text("q"), "ada");
        assert!(
            params(r#"["password","ASC"]"#, "{}")
                .listing(&USERS)
                .is_err()
        );
        assert!(
            params(r#"["email","SIDEWAYS"]"#, "{}")
                .listing(&USERS)
                .is_err()
        );
        assert!(params(r#"["email","ASC"]"#, "[1]").listing(&USERS).is_err());
    }
}
