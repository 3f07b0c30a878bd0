//! The web app: files from `web/dist` (embedded in release builds, read from disk in debug builds), with the SPA
//! fallback so every client route opens directly in the browser.

use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../web/dist"]
#[allow_missing = true]
struct Assets;

/// Serves the asset at the path, else `index.html` (client-side routing shows its own not-found page).
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if let Some(file) = (!path.is_empty()).then(|| Assets::get(path)).flatten() {
        // Vite fingerprints everything under assets/, so those can be cached for good.
        let cache = if path.starts_with("assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        return asset(file, cache);
    }
    match Assets::get("index.html") {
        Some(file) => asset(file, "no-cache"),
        None => (
            StatusCode::SERVICE_UNAVAILABLE,
            "The web app is not built. Run `make run` (or `npm ci && npm run build`) and reload.",
        )
            .into_response(),
    }
}

fn asset(file: rust_embed::EmbeddedFile, cache: &'static str) -> Response {
    let mime = HeaderValue::from_str(file.metadata.mimetype())
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    (
        [
            (header::CONTENT_TYPE, mime),
            (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
        ],
        file.data,
    )
        .into_response()
}
