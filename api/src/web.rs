//! The web app: files from `web/dist` (embedded in release builds, read from disk in debug builds), with the SPA
//! fallback so every client route opens directly in the browser. Text files are served precompressed (Brotli or
//! gzip, written next to them at build time by `web/scripts/precompress.mjs`) when the browser accepts it.

use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../web/dist"]
#[allow_missing = true]
struct Assets;

/// Serves the asset at the path, else `index.html` (client-side routing shows its own not-found page).
pub async fn serve(uri: Uri, headers: HeaderMap) -> Response {
    let accepted = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default();
    let path = uri.path().trim_start_matches('/');
    if let Some(file) = (!path.is_empty()).then(|| Assets::get(path)).flatten() {
        // Vite fingerprints everything under assets/, so those can be cached for good.
        let cache = if path.starts_with("assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        return asset(path, file, cache, accepted);
    }
    match Assets::get("index.html") {
        Some(file) => asset("index.html", file, "no-cache", accepted),
        None => (
            StatusCode::SERVICE_UNAVAILABLE,
            "The web app is not built. Run `make run` (or `npm ci && npm run build`) and reload.",
        )
            .into_response(),
    }
}

/// The file, or its precompressed variant in the best encoding the browser accepts.
fn asset(
    path: &str,
    file: rust_embed::EmbeddedFile,
    cache: &'static str,
    accepted: &str,
) -> Response {
    let mime = HeaderValue::from_str(file.metadata.mimetype())
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    let mut headers = axum::http::HeaderMap::new();
    headers.insert(header::CONTENT_TYPE, mime);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    // Caches keep one copy per encoding.
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    let precompressed = ENCODINGS.iter().find_map(|&(encoding, extension)| {
        accepts(accepted, encoding)
            .then(|| Assets::get(&format!("{path}{extension}")))
            .flatten()
            .map(|packed| (encoding, packed))
    });
    match precompressed {
        Some((encoding, packed)) => {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
            (headers, packed.data).into_response()
        }
        None => (headers, file.data).into_response(),
    }
}

/// The precompressed variants, best first.
const ENCODINGS: [(&str, &str); 2] = [("br", ".br"), ("gzip", ".gz")];

/// Whether an Accept-Encoding header accepts `encoding` (named, or by `*`, and not with `q=0`).
fn accepts(header: &str, encoding: &str) -> bool {
    let mut named = None;
    let mut any = false;
    for item in header.split(',') {
        let mut parts = item.split(';').map(str::trim);
        let name = parts.next().unwrap_or_default();
        let refused = parts.any(|param| {
            param
                .strip_prefix("q=")
                .and_then(|q| q.trim().parse::<f32>().ok())
                .is_some_and(|q| q <= 0.0)
        });
        if name.eq_ignore_ascii_case(encoding) {
            named = Some(!refused);
        } else if name == "*" {
            any = !refused;
        }
    }
    named.unwrap_or(any)
}

#[cfg(test)]
mod tests {
    use super::accepts;

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        assert!(accepts("gzip, deflate, br, zstd", "br"));
        assert!(accepts("gzip;q=1.0, br;q=0.8", "br"));
        assert!(!accepts("gzip, deflate", "br"));
        assert!(!accepts("br;q=0, gzip", "br"));
        assert!(accepts("br;q=0, gzip", "gzip"));
        assert!(accepts("*", "gzip"));
        assert!(!accepts("*, gzip;q=0", "gzip"));
        assert!(!accepts("", "gzip"));
        assert!(accepts("BR", "br"));
    }
}
