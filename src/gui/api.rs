//! The routes: the page and its files, the piece pictures, and the JSON API (docs/gui.md).
//!
//! Every handler does its work on a blocking thread (engine calls and move lists are plain
//! code, not async); a panic there answers 500 and the server goes on. Errors are JSON
//! `{"error": "…"}` with a 4xx status.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use super::record;
use super::requests::{
    self, AnalysisRequest, Empty, LoadRequest, MoveRequest, NewGame, SideRequest,
};
use super::session::{Refusal, Scoring, Session};
use super::sessions::{Sessions, truncate};
use super::store::Store;
use super::{assets, view};
use crate::game::{AnyPosition, Game};
use crate::variant::{Registry, Variant};

/// The largest request body, in bytes (a long PGN fits).
pub const MAX_BODY: usize = 1 << 20;

pub struct App {
    pub registry: Registry,
    pub variants: Vec<&'static Variant>,
    pub sessions: Sessions,
    /// The port the server listens on, which a request's `Host` must name.
    pub port: u16,
    /// Where games are kept (none: in memory only).
    pub store: Option<Arc<Store>>,
}

impl App {
    pub fn new(registry: Registry, port: u16, store: Option<Store>) -> App {
        let variants = registry.all().to_vec();
        let sessions = Sessions::default();
        let store = store.map(Arc::new);
        if let Some(last) = store.as_ref().and_then(|s| s.ids().first().copied()) {
            sessions.ids_after(last);
        }
        App {
            registry,
            variants,
            sessions,
            port,
            store,
        }
    }

    /// The game with this id: in memory, else read back from disk.
    fn session(&self, id: &str) -> Result<Arc<Session>, Refusal> {
        let missing = self.sessions.get(id);
        if missing.is_ok() {
            return missing;
        }
        let (Some(store), Ok(n)) = (&self.store, id.parse::<u64>()) else {
            return missing;
        };
        let Some(text) = store.load(n) else {
            return missing;
        };
        let restored = record::restore(&text, &self.registry).map_err(|e| {
            Refusal::new(
                500,
                format!(
                    "game {n} is kept in {} but cannot be read: {e}",
                    store.dir().display()
                ),
            )
        })?;
        let session = self
            .sessions
            .insert(Session::restore(n, restored, Some(Arc::clone(store))));
        session.begin();
        Ok(session)
    }

    /// The games kept on disk, newest first, as the list of saved games shows them.
    fn saved_games(&self) -> Vec<Value> {
        let Some(store) = &self.store else {
            return Vec::new();
        };
        store
            .ids()
            .into_iter()
            .filter_map(|id| {
                let text = store.load(id)?;
                let game = crate::pgn::read_all(&text).ok()?.into_iter().next()?;
                let tag = |name: &str| game.tag(name).unwrap_or("").to_string();
                Some(json!({
                    "id": id.to_string(),
                    "variant": game.tag("Variant").unwrap_or("chess"),
                    "white": tag("White"),
                    "black": tag("Black"),
                    "date": tag("Date"),
                    "moves": game.moves.len(),
                    "result": tag("Result"),
                }))
            })
            .collect()
    }

    fn variant(&self, name: &str) -> Result<&'static Variant, Refusal> {
        self.variants
            .iter()
            .copied()
            .find(|v| v.name == name)
            .ok_or_else(|| {
                Refusal::bad(format!(
                    "unknown variant '{}' (known: {})",
                    truncate(name),
                    self.registry.names().join(", ")
                ))
            })
    }

    fn variant_index(&self, v: &Variant) -> usize {
        self.variants
            .iter()
            .position(|&w| std::ptr::eq(w, v))
            .unwrap_or(0)
    }

    fn session_json(&self, session: &Session) -> Value {
        let mut st = session.lock();
        let index = self.variant_index(st.game.variant());
        view::session(session, &mut st, index)
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        (status, json_body(&json!({"error": self.message}))).into_response()
    }
}

fn json_body(value: &Value) -> ([(header::HeaderName, HeaderValue); 2], String) {
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        value.to_string(),
    )
}

fn json_reply(status: StatusCode, value: &Value) -> Response {
    (status, json_body(value)).into_response()
}

/// Runs a handler's work on a blocking thread; a panic answers 500.
async fn blocking(work: impl FnOnce() -> Result<Response, Refusal> + Send + 'static) -> Response {
    match tokio::task::spawn_blocking(work).await {
        Ok(Ok(response)) => response,
        Ok(Err(refusal)) => refusal.into_response(),
        Err(_) => Refusal::new(
            500,
            "internal error: the request failed; the server goes on",
        )
        .into_response(),
    }
}

/// The body of a request, or why it could not be read (too large, broken).
fn body(body: Result<Bytes, BytesRejection>) -> Result<Bytes, Refusal> {
    body.map_err(|rejection| {
        let status = rejection.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            Refusal::new(
                413,
                format!("the request body is larger than {MAX_BODY} bytes"),
            )
        } else {
            Refusal::new(
                status.as_u16(),
                format!(
                    "the request body could not be read: {}",
                    rejection.body_text()
                ),
            )
        }
    })
}

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/assets/{*path}", get(asset))
        .route("/pieces/{variant}/{name}", get(piece))
        .route("/api/variants", get(variants))
        .route("/api/games", get(list_games).post(new_game))
        .route("/api/games/{id}", get(show_game).delete(delete_game))
        .route("/api/games/{id}/{what}", get(export).post(action))
        .route("/api/games/{id}/ply/{ply}", get(position_at))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&app),
            guard,
        ))
        .layer(axum::middleware::map_response(not_framed))
        .with_state(app)
}

/// Every answer, refusals included, forbids other sites to frame the page: a page framed
/// out of sight could be clicked through (Resign) without the person knowing.
async fn not_framed(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("frame-ancestors 'none'"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// Refuses what a page of another site, or a rebinding of another name to this address,
/// could send: a `Host` that is not this server, an `Origin` of another site, and bodies
/// that are not JSON.
pub fn check_request(port: u16, method: &Method, headers: &HeaderMap) -> Result<(), Refusal> {
    let ours = |value: &str| {
        let value = value.trim().to_ascii_lowercase();
        [format!("127.0.0.1:{port}"), format!("localhost:{port}")].contains(&value)
    };
    if let Some(host) = headers.get(header::HOST) {
        let host = host.to_str().unwrap_or("");
        if !ours(host) {
            return Err(Refusal::new(
                403,
                format!(
                    "Host '{}' is not this server (127.0.0.1:{port})",
                    truncate(host)
                ),
            ));
        }
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let same = origin.strip_prefix("http://").is_some_and(ours);
        if !same {
            return Err(Refusal::new(
                403,
                format!("requests from '{}' are not served", truncate(origin)),
            ));
        }
    }
    if *method == Method::POST {
        let content_type = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let length = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        // A declared length over the limit is refused before any of the body is read.
        if length
            .trim()
            .parse::<u128>()
            .is_ok_and(|n| n > MAX_BODY as u128)
        {
            return Err(Refusal::new(
                413,
                format!("the request body is larger than {MAX_BODY} bytes"),
            ));
        }
        let has_body = !(length.is_empty() || length == "0")
            || headers.contains_key(header::TRANSFER_ENCODING);
        let json = content_type
            .split(';')
            .next()
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
        if has_body && !json {
            return Err(Refusal::new(
                415,
                format!(
                    "a request body must be JSON (Content-Type: application/json), not '{}'",
                    truncate(content_type)
                ),
            ));
        }
    }
    Ok(())
}

async fn guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    match check_request(app.port, request.method(), request.headers()) {
        Ok(()) => next.run(request).await,
        Err(refusal) => refusal.into_response(),
    }
}

async fn not_found(uri: axum::http::Uri) -> Response {
    Refusal::new(404, format!("nothing at '{}'", truncate(uri.path()))).into_response()
}

async fn method_not_allowed(method: Method, uri: axum::http::Uri) -> Response {
    Refusal::new(
        405,
        format!("'{}' does not take {method}", truncate(uri.path())),
    )
    .into_response()
}

fn file_reply(path: &str) -> Response {
    match assets::file(path) {
        Some(data) => (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static(assets::content_type(path)),
                ),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            data.into_owned(),
        )
            .into_response(),
        None => Refusal::new(404, format!("no file '{}'", truncate(path))).into_response(),
    }
}

async fn index() -> Response {
    file_reply("index.html")
}

async fn asset(Path(path): Path<String>) -> Response {
    file_reply(&path)
}

async fn piece(
    State(app): State<Arc<App>>,
    Path((variant, name)): Path<(String, String)>,
) -> Response {
    let image = variant
        .parse::<usize>()
        .ok()
        .and_then(|i| app.variants.get(i))
        .and_then(|v| assets::piece(v, &name));
    match image {
        Some(svg) => (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("image/svg+xml"),
                ),
                (
                    header::CACHE_CONTROL,
                    HeaderValue::from_static("max-age=3600"),
                ),
            ],
            svg,
        )
            .into_response(),
        None => {
            Refusal::new(404, format!("no piece picture '{}'", truncate(&name))).into_response()
        }
    }
}

async fn variants(State(app): State<Arc<App>>) -> Response {
    let list: Vec<Value> = app
        .variants
        .iter()
        .enumerate()
        .map(|(i, v)| view::variant(i, v))
        .collect();
    json_reply(StatusCode::OK, &Value::Array(list))
}

/// `games`: the ids held in memory; `saved`: every game kept on disk.
async fn list_games(State(app): State<Arc<App>>) -> Response {
    blocking(move || {
        let ids: Vec<String> = app.sessions.ids().iter().map(u64::to_string).collect();
        Ok(json_reply(
            StatusCode::OK,
            &json!({ "games": ids, "saved": app.saved_games() }),
        ))
    })
    .await
}

async fn new_game(State(app): State<Arc<App>>, raw: Result<Bytes, BytesRejection>) -> Response {
    blocking(move || {
        let request: NewGame = requests::parse(&body(raw)?)?;
        let settings = request.settings()?;
        let variant = app.variant(request.variant.as_deref().unwrap_or("chess"))?;
        // The payoff is Magi's own scoring: asked for another variant, it would be dropped
        // without a word.
        if settings.scoring == Scoring::Magi12 && variant.name != "magi" {
            return Err(Refusal::bad(format!(
                "'scoring': magi-12 is the Magi payoff, for the variant magi only, not '{}'",
                variant.name
            )));
        }
        let start = match &request.fen {
            Some(fen) => record::read_fen(variant, fen).map_err(Refusal::bad)?,
            None => AnyPosition::from_fen(variant, None).map_err(Refusal::bad)?,
        };
        let store = app.store.clone();
        let session = app
            .sessions
            .add(|id| Session::new(id, start, settings, store));
        session.begin();
        Ok(json_reply(StatusCode::CREATED, &app.session_json(&session)))
    })
    .await
}

async fn show_game(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    blocking(move || {
        let session = app.session(&id)?;
        Ok(json_reply(StatusCode::OK, &app.session_json(&session)))
    })
    .await
}

async fn delete_game(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    blocking(move || {
        let missing = || Refusal::new(404, format!("no game '{}'", truncate(&id)));
        let n: u64 = id.parse().map_err(|_| missing())?;
        let held = app.sessions.remove(n);
        let kept = app.store.as_ref().is_some_and(|s| s.load(n).is_some());
        if let Some(store) = &app.store {
            store.remove(n);
        }
        if !held && !kept {
            return Err(missing());
        }
        Ok(StatusCode::NO_CONTENT.into_response())
    })
    .await
}

/// `GET /api/games/{id}/ply/{n}`: the position after the game's first `n` moves.
async fn position_at(
    State(app): State<Arc<App>>,
    Path((id, ply)): Path<(String, String)>,
) -> Response {
    blocking(move || {
        let session = app.session(&id)?;
        let st = session.lock();
        let moves = st.game.moves().len();
        let beyond = || {
            Refusal::new(
                404,
                format!(
                    "no position after move '{}': the game has {moves} moves",
                    truncate(&ply)
                ),
            )
        };
        let n: usize = ply.parse().map_err(|_| beyond())?;
        let position = view::position_at(&st, n).ok_or_else(beyond)?;
        Ok(json_reply(StatusCode::OK, &position))
    })
    .await
}

/// `GET /api/games/{id}/pgn | fen | diagram.svg`.
async fn export(State(app): State<Arc<App>>, Path((id, what)): Path<(String, String)>) -> Response {
    blocking(move || {
        let session = app.session(&id)?;
        let st = session.lock();
        let (content_type, name, text) = match what.as_str() {
            "pgn" => ("application/x-chess-pgn", "pgn", record::pgn(&st)),
            "fen" => (
                "text/plain; charset=utf-8",
                "fen",
                st.game.position().to_fen() + "\n",
            ),
            "diagram.svg" => {
                let last = st.game.moves().last().copied();
                let svg = crate::with_position!(st.game.position(), p => crate::diagram::svg::render(p, last));
                ("image/svg+xml", "svg", svg)
            }
            _ => {
                return Err(Refusal::new(
                    404,
                    format!(
                        "a game has no '{}' (pgn, fen, diagram.svg)",
                        truncate(&what)
                    ),
                ));
            }
        };
        let file = format!(
            "attachment; filename=\"magus-{}-{}.{name}\"",
            st.game.variant().name.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_"),
            session.id
        );
        let disposition =
            HeaderValue::from_str(&file).unwrap_or(HeaderValue::from_static("attachment"));
        Ok((
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
                (header::CONTENT_DISPOSITION, disposition),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            ],
            text,
        )
            .into_response())
    })
    .await
}

/// `POST /api/games/{id}/move | undo | load | analysis | resign | draw | stop`.
async fn action(
    State(app): State<Arc<App>>,
    Path((id, what)): Path<(String, String)>,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    blocking(move || {
        let session = app.session(&id)?;
        let bytes = body(raw)?;
        match what.as_str() {
            "move" => {
                let r: MoveRequest = requests::parse(&bytes)?;
                session.play(&r.text, r.ply)?;
            }
            "undo" => {
                let _: Empty = requests::parse(&bytes)?;
                session.undo()?;
            }
            "load" => {
                let r: LoadRequest = requests::parse(&bytes)?;
                let (game, sans) = match (&r.fen, &r.pgn) {
                    (Some(fen), None) => {
                        let variant = session.lock().game.variant();
                        (Game::new(record::read_fen(variant, fen).map_err(Refusal::bad)?), Vec::new())
                    }
                    (None, Some(pgn)) => record::read_pgn(pgn, &app.registry).map_err(Refusal::bad)?,
                    _ => return Err(Refusal::bad("give either 'fen' or 'pgn'")),
                };
                session.load(game, sans);
            }
            "analysis" => {
                let r: AnalysisRequest = requests::parse(&bytes)?;
                let multipv = r.multipv.map(requests::multipv).transpose()?;
                let on = match r.on {
                    Some(on) => on,
                    None => session.lock().settings.show_lines,
                };
                session.set_analysis(on, multipv);
            }
            "resign" => {
                let r: SideRequest = requests::parse(&bytes)?;
                session.resign(r.side()?)?;
            }
            "draw" => {
                let r: SideRequest = requests::parse(&bytes)?;
                session.offer_draw(r.side()?)?;
            }
            "stop" => {
                let _: Empty = requests::parse(&bytes)?;
                session.move_now()?;
            }
            _ => {
                return Err(Refusal::new(
                    404,
                    format!(
                        "a game has no action '{}' (move, undo, load, analysis, resign, draw, stop)",
                        truncate(&what)
                    ),
                ));
            }
        }
        Ok(json_reply(StatusCode::OK, &app.session_json(&session)))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn only_this_server_and_its_own_pages_are_served() {
        let get = Method::GET;
        assert!(check_request(8000, &get, &headers(&[("host", "127.0.0.1:8000")])).is_ok());
        assert!(check_request(8000, &get, &headers(&[("host", "localhost:8000")])).is_ok());
        assert!(check_request(8000, &get, &HeaderMap::new()).is_ok());
        let rebound = check_request(8000, &get, &headers(&[("host", "evil.example:8000")]));
        assert_eq!(rebound.unwrap_err().status, 403);
        let other_port = check_request(8000, &get, &headers(&[("host", "127.0.0.1:9000")]));
        assert_eq!(other_port.unwrap_err().status, 403);
        let foreign = headers(&[
            ("host", "127.0.0.1:8000"),
            ("origin", "http://evil.example"),
        ]);
        assert_eq!(
            check_request(8000, &Method::POST, &foreign)
                .unwrap_err()
                .status,
            403
        );
        let own = headers(&[
            ("host", "127.0.0.1:8000"),
            ("origin", "http://127.0.0.1:8000"),
        ]);
        assert!(check_request(8000, &Method::POST, &own).is_ok());
    }

    #[test]
    fn a_post_body_must_be_json() {
        let post = Method::POST;
        let form = headers(&[
            ("content-type", "application/x-www-form-urlencoded"),
            ("content-length", "5"),
        ]);
        assert_eq!(check_request(1, &post, &form).unwrap_err().status, 415);
        let json = headers(&[
            ("content-type", "application/json; charset=utf-8"),
            ("content-length", "5"),
        ]);
        assert!(check_request(1, &post, &json).is_ok());
        let empty = headers(&[("content-length", "0")]);
        assert!(check_request(1, &post, &empty).is_ok());
        let huge = headers(&[
            ("content-type", "application/json"),
            ("content-length", "100000000000000000000"),
        ]);
        assert_eq!(check_request(1, &post, &huge).unwrap_err().status, 413);
    }
}
