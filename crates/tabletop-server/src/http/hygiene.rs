//! What every request and answer goes through before the routes: the
//! client's key (`forwarded.rs`), the `Host` allow-list (DNS rebinding),
//! the per-client rate, the body limit
//! and body timeout (tower-http), the security headers (tower-http), and
//! the JSON error body on every refusal, including those the HTTP layers
//! make without one (405, 408, 413). [`layers`] stacks them; the header
//! timeout is the listener's ([`crate::listen`]).

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use tower::ServiceBuilder;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::RequestBodyTimeoutLayer;

use crate::client::ClientKey;
use crate::http::error::ApiError;
use crate::metrics::Metrics;
use crate::Server;

/// The page's policy: its own scripts, styles and connections only (no
/// inline script, no framing, no plugin).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Paths a rate limit never refuses (probes and the metrics scrape).
const UNLIMITED: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// Wraps `router` in the layers of this module, outermost first: security
/// headers, JSON errors, the client's key, host check, rate limit, body
/// timeout, body limit.
pub fn layers(router: Router, server: &Arc<Server>) -> Router {
    let http = &server.config().http;
    let header = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    router.layer(
        ServiceBuilder::new()
            .layer(header(
                header::CONTENT_SECURITY_POLICY,
                CONTENT_SECURITY_POLICY,
            ))
            .layer(header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
            .layer(header(header::X_FRAME_OPTIONS, "DENY"))
            .layer(header(header::REFERRER_POLICY, "no-referrer"))
            .layer(middleware::map_response(json_errors))
            .layer(middleware::from_fn_with_state(
                server.clone(),
                super::forwarded::identify,
            ))
            .layer(middleware::from_fn_with_state(server.clone(), check_host))
            .layer(middleware::from_fn_with_state(server.clone(), rate_limit))
            .layer(RequestBodyTimeoutLayer::new(http.body_timeout))
            .layer(RequestBodyLimitLayer::new(server.config().max_body)),
    )
}

/// The host name of a `Host` value, without its port.
fn host_name(value: &str) -> &str {
    match value.strip_prefix('[') {
        // An IPv6 literal keeps its brackets.
        Some(rest) => rest.find(']').map_or(value, |end| &value[..end + 2]),
        None => value.split(':').next().unwrap_or(value),
    }
}

/// Refuses (421) a request whose `Host` names a host not in the allow-list:
/// a page of another site whose name was made to resolve to this server
/// (DNS rebinding) sends its own name. A request without `Host` (HTTP/1.0,
/// a test through the router) comes from no browser and passes.
async fn check_host(State(server): State<Arc<Server>>, req: Request, next: Next) -> Response {
    let allowed = &server.config().http.allowed_hosts;
    if let (false, Some(value)) = (allowed.is_empty(), req.headers().get(header::HOST)) {
        let text = value.to_str().unwrap_or("");
        let name = host_name(text);
        if !allowed.iter().any(|h| h.eq_ignore_ascii_case(name)) {
            return ApiError::BadHost(text.chars().take(100).collect()).into_response();
        }
    }
    next.run(req).await
}

/// The client of a request with `extensions` (`forwarded.rs` puts it
/// there, before every limit).
pub fn client_of(extensions: &axum::http::Extensions) -> ClientKey {
    extensions
        .get::<ClientKey>()
        .copied()
        .unwrap_or(ClientKey::UNKNOWN)
}

/// Refuses (429, with `Retry-After`) a client over its request rate.
async fn rate_limit(State(server): State<Arc<Server>>, req: Request, next: Next) -> Response {
    if !UNLIMITED.contains(&req.uri().path()) {
        if let Err(wait) = server.gate.requests.admit(client_of(req.extensions())) {
            Metrics::bump(&server.metrics.limited);
            let http = &server.config().http;
            return ApiError::TooMany {
                message: format!(
                    "more than {} requests a second (burst {}) from this client",
                    http.client_rate, http.client_burst
                ),
                retry_after: wait.as_secs().max(1),
            }
            .into_response();
        }
    }
    next.run(req).await
}

/// Gives every refusal without a JSON body (axum's 405, tower-http's 413
/// and 408) the documented JSON error, keeping its headers (`Allow`).
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) || is_json(response.headers()) {
        return response;
    }
    let (mut parts, _) = response.into_parts();
    let fresh = ApiError::Http(status).into_response();
    let (fresh_parts, body) = fresh.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.extend(fresh_parts.headers);
    Response::from_parts(parts, Body::new(body))
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|m| {
            let m = m.trim();
            m.eq_ignore_ascii_case("application/json") || m.ends_with("+json")
        })
}

/// Refuses (415) a body not declared `application/json`: a form another
/// site's page posts (no preflight) is not read as an action.
pub fn require_json(headers: &HeaderMap) -> Result<(), ApiError> {
    if is_json(headers) {
        Ok(())
    } else {
        Err(ApiError::NotJson(
            "the body must be JSON, sent with `Content-Type: application/json`".into(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_name_drops_the_port_and_keeps_ipv6_brackets() {
        assert_eq!(host_name("localhost:8080"), "localhost");
        assert_eq!(host_name("127.0.0.1"), "127.0.0.1");
        assert_eq!(host_name("[::1]:80"), "[::1]");
        assert_eq!(host_name("[::1]"), "[::1]");
        assert_eq!(host_name("evil.example:8080"), "evil.example");
    }

    #[test]
    fn only_json_media_types_are_json() {
        let mut h = HeaderMap::new();
        assert!(require_json(&h).is_err());
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        assert!(require_json(&h).is_err());
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json; charset=utf-8"),
        );
        assert!(require_json(&h).is_ok());
    }
}
