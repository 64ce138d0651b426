//! The browser page: plain HTML, CSS and JavaScript modules, compiled into
//! the binary so the server runs from any directory.
//!
//! A game-specific drawing is a module `web/renderers/NAME.js` (NAME the
//! registry's game name) added to [`FILES`], the one list of drawings: the
//! game listing names each game's drawing ([`renderer`]) and the page
//! loads what it names; every other game uses `generic.js`.

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::http::error::ApiError;

/// Every file of the page: (path under `/web/`, content type, content).
pub const FILES: &[(&str, &str, &str)] = &[
    (
        "app.js",
        "text/javascript",
        include_str!("../../web/app.js"),
    ),
    (
        "api.js",
        "text/javascript",
        include_str!("../../web/api.js"),
    ),
    ("style.css", "text/css", include_str!("../../web/style.css")),
    ("favicon.svg", ICON_TYPE, ICON),
    (
        "home.js",
        "text/javascript",
        include_str!("../../web/home.js"),
    ),
    (
        "play.js",
        "text/javascript",
        include_str!("../../web/play.js"),
    ),
    (
        "replay.js",
        "text/javascript",
        include_str!("../../web/replay.js"),
    ),
    (
        "route.js",
        "text/javascript",
        include_str!("../../web/route.js"),
    ),
    (
        "store.js",
        "text/javascript",
        include_str!("../../web/store.js"),
    ),
    (
        "names.js",
        "text/javascript",
        include_str!("../../web/names.js"),
    ),
    (
        "legend.js",
        "text/javascript",
        include_str!("../../web/legend.js"),
    ),
    (
        "keys.js",
        "text/javascript",
        include_str!("../../web/keys.js"),
    ),
    (
        "setup.js",
        "text/javascript",
        include_str!("../../web/setup.js"),
    ),
    (
        "player.js",
        "text/javascript",
        include_str!("../../web/player.js"),
    ),
    (
        "leaderboard.js",
        "text/javascript",
        include_str!("../../web/leaderboard.js"),
    ),
    (
        "clock.js",
        "text/javascript",
        include_str!("../../web/clock.js"),
    ),
    (
        "renderers/index.js",
        "text/javascript",
        include_str!("../../web/renderers/index.js"),
    ),
    (
        "renderers/generic.js",
        "text/javascript",
        include_str!("../../web/renderers/generic.js"),
    ),
    (
        "renderers/common.js",
        "text/javascript",
        include_str!("../../web/renderers/common.js"),
    ),
    (
        "renderers/battleline.js",
        "text/javascript",
        include_str!("../../web/renderers/battleline.js"),
    ),
    (
        "renderers/stratego.js",
        "text/javascript",
        include_str!("../../web/renderers/stratego.js"),
    ),
    (
        "renderers/cardwar.js",
        "text/javascript",
        include_str!("../../web/renderers/cardwar.js"),
    ),
];

/// The drawing the page loads for game `name` (the registry's name), as its
/// path under `/web/`: `renderers/NAME.js` when [`FILES`] holds one,
/// else the generic drawing of any game.
pub fn renderer(name: &str) -> &'static str {
    let own = format!("renderers/{name}.js");
    FILES
        .iter()
        .map(|(path, _, _)| *path)
        .find(|path| *path == own)
        .unwrap_or(GENERIC_RENDERER)
}

/// The drawing of a game without its own: actions and views as text.
const GENERIC_RENDERER: &str = "renderers/generic.js";

/// `GET /`, `GET /m/{id}` and `GET /m/{id}/replay`: the page (it reads
/// its address to show the home, a match or a replay).
pub async fn index() -> Response {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("../../web/index.html"),
    )
        .into_response()
}

/// The page's icon, linked from its head.
const ICON: &str = include_str!("../../web/favicon.svg");

/// The icon's content type.
const ICON_TYPE: &str = "image/svg+xml";

/// `GET /favicon.ico`: the page's icon, for the browsers and tools that
/// ask for it there whatever the page links (a 404 in every console
/// otherwise).
pub async fn favicon() -> Response {
    ([(header::CONTENT_TYPE, ICON_TYPE)], ICON).into_response()
}

/// `GET /web/{file}`: a file of the page.
pub async fn file(Path(path): Path<String>) -> Result<Response, ApiError> {
    FILES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|(_, mime, body)| ([(header::CONTENT_TYPE, *mime)], *body).into_response())
        .ok_or_else(|| {
            ApiError::NotFound(format!(
                "/web/{}",
                path.chars().take(100).collect::<String>()
            ))
        })
}
