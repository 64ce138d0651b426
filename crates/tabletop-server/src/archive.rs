//! Matches read without entering memory. A finished match's
//! views as it ended (the spectator's and each seat's) are stored once,
//! when it leaves memory, or at the first read of a match that finished
//! before views were kept, and then served as stored: a spectator or a
//! crawler walking old matches costs a row read, not a replay, and brings
//! nothing into memory.
//!
//! What still needs a replay (a replay's steps, a notation, the first read
//! of an old match, the view of a running match that no one plays in this
//! process now) is rebuilt outside memory and dropped after the answer,
//! [`crate::limits::REBUILDS`] at a time in all and one at a time per client, so a client
//! walking matches waits for its own rebuilds, not the others. A running
//! match enters memory when a seat acts or watches (its WebSocket), not
//! when it is read.

use std::io::{Read, Write};
use std::sync::Arc;

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use game_traits::PlayerId;

use crate::client::ClientKey;
use crate::memory::Cell;
use crate::refusal::MatchError;
use crate::replay::{self, Source, Viewpoint};
use crate::room::Room;
use crate::store::{FinalViews, Kept, StoredMatch};
use crate::token::{self, Seal, Token};
use crate::views::{self, Extra};
use crate::Server;

/// The views of the finished match in `room` as it ended, compressed.
pub fn final_views(room: &Room) -> Result<FinalViews, MatchError> {
    let view = |seat| views::view(room, seat, Extra::default()).map(|v| gzip(&v));
    Ok(FinalViews {
        spectator: view(None)??,
        seats: [view(Some(PlayerId::P0))??, view(Some(PlayerId::P1))??],
    })
}

fn closed(_: tokio::sync::AcquireError) -> MatchError {
    MatchError::internal("the rebuild queue closed")
}

fn gzip(bytes: &[u8]) -> Result<Vec<u8>, MatchError> {
    let mut out = GzEncoder::new(Vec::with_capacity(bytes.len() / 4), Compression::fast());
    out.write_all(bytes)
        .and_then(|()| out.finish())
        .map_err(|e| MatchError::internal(format!("compressing a view: {e}")))
}

fn gunzip(bytes: &[u8]) -> Result<Vec<u8>, MatchError> {
    let mut out = Vec::with_capacity(bytes.len() * 8);
    GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .map_err(|e| MatchError::internal(format!("a stored view does not decompress: {e}")))?;
    Ok(out)
}

/// The seat of `token` among `tokens` (seals as stored), `None` without a
/// token; a token of no seat is refused.
fn seat_of(
    tokens: &[Option<String>; 2],
    token: Option<Token>,
) -> Result<Option<PlayerId>, MatchError> {
    let Some(token) = token else { return Ok(None) };
    let seals = [0, 1].map(|i| tokens[i].as_deref().and_then(Seal::parse));
    token::seat_of(&seals, &token)
        .map(Some)
        .ok_or(MatchError::NotASeat)
}

impl Server {
    /// Match `id` if it is stored and not in memory (a match in memory is
    /// read there, where it may be newer than the store): the
    /// `archived_*` reads take it once it is over, [`Server::view_outside_memory`]
    /// before.
    pub async fn archived(&self, id: i64) -> Result<Option<Kept>, MatchError> {
        if self.memory.cached(id).is_some() {
            return Ok(None);
        }
        Ok(self.db(move |s| s.kept(id)).await?)
    }

    /// Rebuilds the finished match `m` outside memory, on a blocking
    /// thread, in `client`'s turn.
    async fn rebuild<T: Send + 'static>(
        self: &Arc<Self>,
        client: ClientKey,
        id: i64,
        then: impl FnOnce(&Server, StoredMatch) -> Result<T, MatchError> + Send + 'static,
    ) -> Result<Option<T>, MatchError> {
        let _turn = self.gate.rebuilds.turn(client).await.map_err(closed)?;
        let Some(m) = self.db(move |s| s.get(id)).await? else {
            return Ok(None);
        };
        crate::metrics::Metrics::bump(&self.metrics.matches_rebuilt);
        let server = self.clone();
        let out = tokio::task::spawn_blocking(move || then(&server, m))
            .await
            .map_err(|e| MatchError::internal(format!("rebuilding a match: {e}")))??;
        Ok(Some(out))
    }

    /// The view of the finished match `id` ([`Server::archived`]) for
    /// the seat of `token` (a spectator's without one) as stored; `None`
    /// when it is read live instead: it has a rematch (which its stored
    /// views do not name), or its record went meanwhile.
    pub async fn archived_view(
        self: &Arc<Self>,
        id: i64,
        finished: Kept,
        token: Option<Token>,
        client: ClientKey,
    ) -> Result<Option<Vec<u8>>, MatchError> {
        if finished.rematch.is_some() {
            return Ok(None);
        }
        let seat = seat_of(&finished.tokens, token)?;
        fn pick(views: &FinalViews, seat: Option<PlayerId>) -> &[u8] {
            match seat {
                None => &views.spectator,
                Some(p) => &views.seats[p.index()],
            }
        }
        if let Some(views) = &finished.views {
            crate::metrics::Metrics::bump(&self.metrics.views_archived);
            return gunzip(pick(views, seat)).map(Some);
        }
        // Finished before views were kept: rebuilt once, then stored.
        let views = self
            .rebuild(client, id, |server, m| {
                final_views(&server.room_of(m).map_err(MatchError::internal)?)
            })
            .await?;
        let Some(views) = views else { return Ok(None) };
        let bytes = gunzip(pick(&views, seat))?;
        self.db(move |s| s.keep_views(id, &views)).await?;
        Ok(Some(bytes))
    }

    /// The view of match `id` ([`Server::archived`], not over) for the
    /// seat of `token` (a spectator's without one), rebuilt outside
    /// memory; `None` if its record went meanwhile. Such a match waits for
    /// a person and has no clock running (the server keeps the others in
    /// memory), so the store holds all of it.
    pub async fn view_outside_memory(
        self: &Arc<Self>,
        id: i64,
        token: Option<Token>,
        client: ClientKey,
    ) -> Result<Option<Vec<u8>>, MatchError> {
        self.rebuild(client, id, move |server, m| {
            let room = server.room_of(m).map_err(MatchError::internal)?;
            let seat = match token {
                None => None,
                Some(t) => Some(room.seat_of(&t).ok_or(MatchError::NotASeat)?),
            };
            Ok(views::view(&room, seat, Extra::of(room.lobby()))?)
        })
        .await
    }

    /// The replay of the finished match `id` ([`Server::archived`]) at
    /// `step` from `view`, rebuilt outside memory; `None` if its record
    /// went meanwhile.
    #[allow(clippy::too_many_arguments)]
    pub async fn archived_replay(
        &self,
        id: i64,
        finished: Kept,
        step: usize,
        view: Viewpoint,
        token: Option<Token>,
        client: ClientKey,
    ) -> Result<Option<Vec<u8>>, MatchError> {
        let asker = seat_of(&finished.tokens, token)?;
        let _turn = self.gate.rebuilds.turn(client).await.map_err(closed)?;
        let Some(m) = self.db(move |s| s.get(id)).await? else {
            return Ok(None);
        };
        crate::metrics::Metrics::bump(&self.metrics.matches_rebuilt);
        let source = self.source_of(m)?;
        replay::view_of(source, step, view, asker).await.map(Some)
    }

    /// The record of the finished match `id` ([`Server::archived`]), from
    /// the store; `None` if it went meanwhile.
    pub async fn archived_record(&self, id: i64) -> Result<Option<String>, MatchError> {
        let Some(m) = self.db(move |s| s.get(id)).await? else {
            return Ok(None);
        };
        let game = self.game_of(&m).map_err(MatchError::internal)?;
        Ok(Some(game.record_json(m.seed, &m.actions)?))
    }

    /// The notation of the finished match `id` ([`Server::archived`]),
    /// rebuilt outside memory; `None` if its record went meanwhile.
    pub async fn archived_notation(
        self: &Arc<Self>,
        id: i64,
        client: ClientKey,
    ) -> Result<Option<String>, MatchError> {
        self.rebuild(client, id, |server, m| {
            replay::notation_of(&server.room_of(m).map_err(MatchError::internal)?)
        })
        .await
    }

    /// Stores the final views of the finished matches that just left
    /// memory (nothing for one already stored). A failure is logged: the
    /// first read rebuilds them.
    pub(crate) async fn keep_final_views(&self, gone: Vec<Arc<Cell>>) {
        for cell in gone {
            let (id, views) = {
                let room = cell.room().read().await;
                (room.id(), final_views(&room))
            };
            let stored = match views {
                Ok(views) => self
                    .db(move |s| s.keep_views(id, &views))
                    .await
                    .map_err(MatchError::from),
                Err(e) => Err(e),
            };
            if let Err(e) = stored {
                tracing::warn!(match_id = id, error = %e, "storing a finished match's views");
            }
        }
    }

    /// The replay source of the finished match `m`.
    fn source_of(&self, m: StoredMatch) -> Result<Source, MatchError> {
        let game = self.game_of(&m).map_err(MatchError::internal)?;
        let seats = self.seats_of(&m).map_err(MatchError::internal)?;
        Ok(Source::finished(m, game, seats))
    }
}
