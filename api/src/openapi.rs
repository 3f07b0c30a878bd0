//! The HTTP API described as OpenAPI 3.1, generated from the handlers' `#[utoipa::path]` annotations and the view
//! types (`ToSchema`) as `app()` mounts them: `GET /api/openapi.json` for scripts and code generators (the web app's
//! TypeScript types are generated from it), `GET /api/docs` as a page to read. The answers every endpoint of a kind
//! can give (a gated endpoint's 401 and 403, a write's 403 from another origin and 415 without JSON, 421 for a
//! foreign host, 500) are added here once rather than written on every handler.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::Extension;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa::openapi::path::{HttpMethod, Operation};
use utoipa::openapi::{OpenApi, RefOr, Required, ResponseBuilder, content::ContentBuilder};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
pub use crate::error::ErrorBody;

/// The answer of an action that has nothing more to say: `{"success": true}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Success {
    pub success: bool,
}

pub const DONE: Success = Success { success: true };

/// The answer of an action that says what it did: `{"success": true, "message": ...}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Done {
    pub success: bool,
    pub message: String,
}

/// Who may call a group of endpoints, which decides the error answers they share.
#[derive(Debug, Clone, Copy)]
pub enum Access {
    /// Anyone (public pages, tracking links, webhooks with their own signatures).
    Public,
    /// A signed-in user, whatever their account's state.
    SignedIn,
    /// A signed-in user whose account is active (the account gate: 403 when inactive or expired).
    Gated,
    /// An administrator.
    Admin,
}

/// The two endpoints of this module.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(openapi_json))
        .routes(routes!(docs))
}

/// Adds the error answers `access` implies to every operation of `router`.
pub fn with_access(mut router: OpenApiRouter<AppState>, access: Access) -> OpenApiRouter<AppState> {
    for item in router.get_openapi_mut().paths.paths.values_mut() {
        for (method, operation) in operations_mut(item) {
            let write = !matches!(method, HttpMethod::Get | HttpMethod::Head);
            let answers: &[(&str, &str)] = match access {
                Access::Public => &[],
                Access::SignedIn => &[("401", "Not signed in")],
                Access::Gated => &[
                    ("401", "Not signed in"),
                    (
                        "403",
                        "The account is inactive or its subscription has expired",
                    ),
                ],
                Access::Admin => &[("401", "Not signed in"), ("403", "Not an administrator")],
            };
            for (status, description) in answers {
                add_error(operation, status, description);
            }
            if write {
                add_error(operation, "403", "The request came from another site");
                let upload = matches!(&operation.request_body, Some(RefOr::T(body))
                    if body.content.contains_key("multipart/form-data"));
                if operation.request_body.is_some() {
                    add_error(
                        operation,
                        "415",
                        "The body is not JSON (or a file upload where one is expected)",
                    );
                }
                if upload {
                    add_error(operation, "400", "The upload could not be read");
                } else if operation.request_body.is_some() {
                    add_error(
                        operation,
                        "422",
                        "The body is not valid JSON, lacks a field or has one over its limit",
                    );
                }
            }
        }
    }
    router
}

/// The finished description: title, version, and the answers every endpoint can give.
pub fn finish(mut document: OpenApi) -> OpenApi {
    document.info.title = "Outreach API".into();
    document.info.description = Some(
        "The HTTP API of an Outreach instance: what its web app uses, for scripts against your own instance. \
         Sign in through the browser; requests carry the session cookie, and writes need the instance's own \
         Origin header."
            .into(),
    );
    document.info.license = None;
    for (path, item) in document.paths.paths.iter_mut() {
        for (method, operation) in operations_mut(item) {
            operation.operation_id = Some(operation_id(&method, path));
            // OpenAPI requires a description on every answer; a success the handler did not describe gets its name.
            for (status, response) in operation.responses.responses.iter_mut() {
                if let RefOr::T(response) = response
                    && response.description.is_empty()
                {
                    response.description = status_name(status).into();
                }
            }
            add_error(
                operation,
                "421",
                "The request named a host this instance does not answer to",
            );
            add_error(
                operation,
                "500",
                "Something went wrong on the server (the details are in its log)",
            );
        }
    }
    document
}

fn status_name(status: &str) -> &'static str {
    match status {
        "200" => "OK",
        "201" => "Created",
        "202" => "Accepted",
        "204" => "No Content",
        "303" => "See Other",
        _ => "Answer",
    }
}

/// A name unique by construction, for code generators: `get /api/campaigns/{id}` is `getApiCampaignsById`.
fn operation_id(method: &HttpMethod, path: &str) -> String {
    let verb = match method {
        HttpMethod::Get => "get",
        HttpMethod::Post => "post",
        HttpMethod::Put => "put",
        HttpMethod::Patch => "patch",
        _ => "delete",
    };
    let mut id = verb.to_string();
    for segment in path.split('/').filter(|segment| !segment.is_empty()) {
        let (prefix, word) = match segment.strip_prefix('{') {
            Some(parameter) => ("By", parameter.trim_end_matches('}')),
            None => ("", segment),
        };
        id.push_str(prefix);
        for part in word
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|part| !part.is_empty())
        {
            let mut chars = part.chars();
            id.extend(chars.next().map(|first| first.to_ascii_uppercase()));
            id.push_str(chars.as_str());
        }
    }
    id
}

fn operations_mut(
    item: &mut utoipa::openapi::PathItem,
) -> impl Iterator<Item = (HttpMethod, &mut Operation)> {
    [
        (HttpMethod::Get, item.get.as_mut()),
        (HttpMethod::Post, item.post.as_mut()),
        (HttpMethod::Put, item.put.as_mut()),
        (HttpMethod::Patch, item.patch.as_mut()),
        (HttpMethod::Delete, item.delete.as_mut()),
    ]
    .into_iter()
    .filter_map(|(method, operation)| operation.map(|operation| (method, operation)))
}

/// An `ErrorBody` answer with this status, unless the operation already describes one.
fn add_error(operation: &mut Operation, status: &str, description: &str) {
    operation
        .responses
        .responses
        .entry(status.to_string())
        .or_insert_with(|| {
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(RefOr::Ref(utoipa::openapi::Ref::from_schema_name(
                            "ErrorBody",
                        ))))
                        .build(),
                )
                .build()
                .into()
        });
}

/// The OpenAPI 3.1 description of this API.
#[utoipa::path(get, path = "/api/openapi.json", tag = "documentation",
    responses((status = 200, description = "The OpenAPI 3.1 document", content_type = "application/json")))]
pub async fn openapi_json(Extension(document): Extension<Arc<OpenApi>>) -> Response {
    let json = document.to_json().unwrap_or_default();
    ([(header::CONTENT_TYPE, "application/json")], json).into_response()
}

/// The API description as a page to read: every endpoint by tag with its parameters, body and answers.
#[utoipa::path(get, path = "/api/docs", tag = "documentation",
    responses((status = 200, description = "An HTML page", content_type = "text/html")))]
pub async fn docs(Extension(document): Extension<Arc<OpenApi>>) -> Html<String> {
    Html(render(&document))
}

/// The reference page: operations grouped by tag, then the schemas.
fn render(document: &OpenApi) -> String {
    let mut operations: Vec<(String, &str, String, &Operation)> = Vec::new();
    for (path, item) in &document.paths.paths {
        let all = [
            ("GET", &item.get),
            ("POST", &item.post),
            ("PUT", &item.put),
            ("PATCH", &item.patch),
            ("DELETE", &item.delete),
        ];
        for (method, operation) in all {
            if let Some(operation) = operation {
                let tag = operation
                    .tags
                    .as_ref()
                    .and_then(|tags| tags.first().cloned())
                    .unwrap_or_default();
                operations.push((tag, method, path.clone(), operation));
            }
        }
    }
    operations.sort_by(|a, b| (&a.0, &a.2).cmp(&(&b.0, &b.2)));

    let mut page = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Outreach API</title>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>\
         body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#0f172a}\
         h2{margin-top:2rem;border-bottom:1px solid #e2e8f0}code{background:#f1f5f9;padding:0 .25rem;border-radius:4px}\
         details{margin:.5rem 0;border:1px solid #e2e8f0;border-radius:6px;padding:.5rem .75rem}\
         summary{cursor:pointer}.m{display:inline-block;min-width:4.5rem;font-weight:700}td{padding:.1rem .6rem .1rem 0;vertical-align:top}\
         </style></head><body><h1>Outreach API</h1>",
    );
    let description = document.info.description.as_deref().unwrap_or_default();
    let version = serde_json::to_value(&document.openapi)
        .ok()
        .and_then(|value| value.as_str().map(String::from))
        .unwrap_or_default();
    let _ = write!(
        page,
        "<p>{}</p><p>Machine-readable: <a href=\"/api/openapi.json\">/api/openapi.json</a> (OpenAPI {}). \
         Errors answer <code>{{\"error\": code, \"message\": text}}</code>.</p>",
        escape(description),
        escape(&version),
    );
    let mut current_tag = None;
    for (tag, method, path, operation) in operations {
        if current_tag.as_ref() != Some(&tag) {
            let _ = write!(page, "<h2>{}</h2>", escape(&tag));
            current_tag = Some(tag);
        }
        let summary = operation.summary.as_deref().unwrap_or_default();
        let _ = write!(
            page,
            "<details><summary><span class=\"m\">{method}</span><code>{}</code> {}</summary>",
            escape(&path),
            escape(summary),
        );
        if let Some(description) = &operation.description {
            let _ = write!(page, "<p>{}</p>", escape(description));
        }
        if let Some(parameters) = &operation.parameters {
            page.push_str("<p>Parameters:</p><table>");
            for parameter in parameters.iter().filter_map(|parameter| match parameter {
                RefOr::T(parameter) => Some(parameter),
                RefOr::Ref(_) => None,
            }) {
                let required = matches!(parameter.required, Required::True);
                let _ = write!(
                    page,
                    "<tr><td><code>{}</code></td><td>{}{}</td><td>{}</td></tr>",
                    escape(&parameter.name),
                    serde_json::to_value(&parameter.parameter_in)
                        .ok()
                        .and_then(|value| value.as_str().map(String::from))
                        .unwrap_or_default(),
                    if required { ", required" } else { "" },
                    escape(parameter.description.as_deref().unwrap_or_default()),
                );
            }
            page.push_str("</table>");
        }
        if let Some(RefOr::T(body)) = &operation.request_body {
            let schemas: Vec<String> = body
                .content
                .values()
                .map(|content| match content {
                    RefOr::T(content) => schema_name(content.schema.as_ref()),
                    RefOr::Ref(_) => String::new(),
                })
                .collect();
            let _ = write!(
                page,
                "<p>Body: <code>{}</code></p>",
                escape(&schemas.join(", "))
            );
        }
        page.push_str("<p>Answers:</p><table>");
        for (status, response) in &operation.responses.responses {
            if let RefOr::T(response) = response {
                let schema = response
                    .content
                    .values()
                    .next()
                    .map(|content| match content {
                        RefOr::T(content) => schema_name(content.schema.as_ref()),
                        RefOr::Ref(_) => String::new(),
                    })
                    .unwrap_or_default();
                let _ = write!(
                    page,
                    "<tr><td>{}</td><td><code>{}</code></td><td>{}</td></tr>",
                    escape(status),
                    escape(&schema),
                    escape(&response.description),
                );
            }
        }
        page.push_str("</table></details>");
    }
    if let Some(components) = &document.components {
        page.push_str("<h2>Schemas</h2>");
        for (name, schema) in &components.schemas {
            let json = serde_json::to_string_pretty(schema).unwrap_or_default();
            let _ = write!(
                page,
                "<details id=\"{0}\"><summary><code>{0}</code></summary><pre>{1}</pre></details>",
                escape(name),
                escape(&json),
            );
        }
    }
    page.push_str("</body></html>");
    page
}

/// A schema as a reader names it: the referenced type, an array of it, or its JSON type.
fn schema_name(schema: Option<&RefOr<utoipa::openapi::Schema>>) -> String {
    let Some(schema) = schema else {
        return String::new();
    };
    let value = serde_json::to_value(schema).unwrap_or_default();
    let reference = |value: &serde_json::Value| {
        value
            .get("$ref")
            .and_then(|reference| reference.as_str())
            .map(|reference| {
                reference
                    .rsplit('/')
                    .next()
                    .unwrap_or(reference)
                    .to_string()
            })
    };
    if let Some(name) = reference(&value) {
        return name;
    }
    if let Some(items) = value.get("items") {
        return format!("{}[]", reference(items).unwrap_or_else(|| "object".into()));
    }
    value
        .get("type")
        .map(|kind| kind.to_string().trim_matches('"').to_string())
        .unwrap_or_else(|| "object".into())
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
