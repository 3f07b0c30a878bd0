//! The API's description: `GET /api/openapi.json` is the document `openapi()` builds, every operation it lists is
//! one `app()` answers, nothing is mounted beside it, and the committed copy the web app's types are generated from
//! is current.

use super::*;

/// The copy of the description the frontends generate their TypeScript types from (`make openapi` writes it).
const COMMITTED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../client/src/api/openapi.json"
);

const INBOUND_SECRET: &str = "inbound-secret-for-tests";

/// A concrete path for a documented template: `{id}` and friends become 1, the pixel a GIF name, the inbound
/// webhook this instance's secret.
fn concrete(template: &str) -> String {
    template
        .replace("{file}", "token.gif")
        .replace("{secret}", INBOUND_SECRET)
        .split('/')
        .map(|segment| {
            if segment.starts_with('{') {
                "1"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test]
async fn the_description_lists_every_route_the_app_answers_and_is_served() {
    each_backend(|test_db| async move {
        let app = TestApp::start_with(test_db, |settings| {
            settings.sendgrid.inbound_secret =
                outreach_core::platform::config::Secret::new(INBOUND_SECRET);
        })
        .await;
        let browser = app.browser();
        let expected = serde_json::to_value(outreach_api::openapi()).unwrap();
        let (status, served) = browser.get_json("/api/openapi.json").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(served, expected, "the served document is openapi()");
        assert_eq!(served["openapi"], "3.1.0");

        let paths = served["paths"].as_object().unwrap();
        let mut operations = 0;
        for (template, item) in paths {
            for method in ["get", "post", "put", "patch", "delete"] {
                let Some(operation) = item.get(method) else {
                    continue;
                };
                operations += 1;
                let url = browser.url(&concrete(template));
                let request = browser
                    .http
                    .request(method.to_uppercase().parse().unwrap(), url);
                let request = if method == "get" {
                    request
                } else {
                    request.json(&json!({}))
                };
                let response = browser.send(request).await;
                let status = response.status();
                let kind = response
                    .headers()
                    .get("content-type")
                    .map(|value| value.to_str().unwrap().to_string())
                    .unwrap_or_default();
                let body = response.text().await.unwrap();
                let described = format!("{method} {template}");
                assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{described}");
                assert!(
                    !body.contains("No such endpoint") || template.contains("{secret}"),
                    "{described} is not routed: {body}"
                );
                // Outside /api, an unrouted path is the web app's page; only documented pages may answer HTML.
                let page = operation["responses"]["200"]["content"]
                    .get("text/html")
                    .is_some();
                if !template.starts_with("/api/") && !page {
                    assert!(
                        !kind.starts_with("text/html"),
                        "{described} is not routed: {kind}"
                    );
                }
                // Every error answer is described with the error body.
                if status.is_client_error() || status.is_server_error() {
                    if kind.starts_with("application/json") {
                        let error: Value = serde_json::from_str(&body).unwrap();
                        assert!(
                            error["error"].is_string() && error["message"].is_string(),
                            "{described}: {body}"
                        );
                    }
                    assert!(
                        operation["responses"].get(status.as_str()).is_some(),
                        "{described} answered {status}, which its description does not list"
                    );
                }
            }
        }
        assert!(operations >= 76, "{operations} operations described");

        let docs = browser.get("/api/docs").await;
        assert_eq!(docs.status(), StatusCode::OK);
        let page = docs.text().await.unwrap();
        for template in paths.keys() {
            assert!(
                page.contains(&template.replace('&', "&amp;")),
                "/api/docs lists {template}"
            );
        }
    })
    .await;
}

/// Routes are mounted only through the described routers: `app()` adds no route of its own but the catch-all
/// that answers unknown `/api` paths.
#[test]
fn no_route_is_mounted_outside_the_description() {
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut stack = vec![std::path::PathBuf::from(source)];
    let mut plain_routes = Vec::new();
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(
                std::fs::read_dir(&path)
                    .unwrap()
                    .map(|entry| entry.unwrap().path()),
            );
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            for line in text.lines().filter(|line| line.contains(".route(")) {
                plain_routes.push(format!("{}: {}", path.display(), line.trim()));
            }
        }
    }
    assert_eq!(plain_routes.len(), 2, "{plain_routes:#?}");
    assert!(
        plain_routes
            .iter()
            .any(|line| line.contains("\"/api/{*rest}\"")),
        "{plain_routes:#?}"
    );
    assert!(
        plain_routes
            .iter()
            .any(|line| line.contains("\"/metrics\"")),
        "{plain_routes:#?}"
    );
}

/// The committed description equals the one the code builds, so the generated TypeScript cannot drift from the
/// server. `UPDATE_OPENAPI=1` (or `make openapi`) rewrites it.
#[test]
fn the_committed_description_is_current() {
    let current = serde_json::to_string_pretty(&outreach_api::openapi()).unwrap() + "\n";
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(COMMITTED, &current).unwrap();
    }
    let committed = std::fs::read_to_string(COMMITTED).unwrap_or_default();
    assert!(
        committed == current,
        "client/src/api/openapi.json is out of date: run `make openapi` and commit it with the types it generates"
    );
}
