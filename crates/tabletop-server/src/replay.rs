//! Replays: any match rebuilt to step N from its record ([`Room::replay`])
//! and shown from a viewpoint, and a finished match's record and notation
//! to download.
//!
//! While a match runs, its replay shows only what the asker may see live:
//! the spectator's view to anyone, a seat's view to that seat's token.
//! Once it is over, both seats' views and the full view (both side by
//! side) are open to anyone, like the record, which holds the seed and so
//! every hidden card and piece.

use std::sync::Arc;

use game_env::DynGame;
use game_traits::PlayerId;

use crate::memory::Cell;
use crate::refusal::MatchError;
use crate::room::Room;
use crate::seat::Seat;
use crate::store::StoredMatch;
use crate::views::{self, Extra};

/// Whose eyes a replay is seen through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewpoint {
    /// What both seats perceive alike.
    Spectator,
    /// Seat 0's view.
    Seat0,
    /// Seat 1's view.
    Seat1,
    /// Both seats' views (a finished match only).
    Full,
}

impl Viewpoint {
    /// The viewpoint written `spectator`, `0`, `1` or `full`.
    pub fn parse(text: &str) -> Option<Viewpoint> {
        match text {
            "spectator" => Some(Viewpoint::Spectator),
            "0" => Some(Viewpoint::Seat0),
            "1" => Some(Viewpoint::Seat1),
            "full" => Some(Viewpoint::Full),
            _ => None,
        }
    }

    /// The seat, if the viewpoint is one seat's.
    fn seat(self) -> Option<PlayerId> {
        match self {
            Viewpoint::Seat0 => Some(PlayerId::P0),
            Viewpoint::Seat1 => Some(PlayerId::P1),
            Viewpoint::Spectator | Viewpoint::Full => None,
        }
    }
}

/// Why a viewpoint is refused now, if it is: `asker` is the seat whose
/// token came with the request.
pub fn allowed(finished: bool, view: Viewpoint, asker: Option<PlayerId>) -> Result<(), MatchError> {
    match view {
        _ if finished => Ok(()),
        Viewpoint::Spectator => Ok(()),
        Viewpoint::Full => Err(MatchError::FullViewTooEarly),
        Viewpoint::Seat0 | Viewpoint::Seat1 if view.seat() == asker => Ok(()),
        Viewpoint::Seat0 | Viewpoint::Seat1 => Err(MatchError::NotYourView),
    }
}

fn internal(what: &str, e: impl std::fmt::Display) -> MatchError {
    MatchError::internal(format!("{what}: {e}"))
}

/// What a replay is rebuilt from: a match's record as it stands.
pub struct Source {
    id: i64,
    game: Arc<dyn DynGame>,
    seed: u64,
    seats: [Seat; 2],
    actions: Vec<usize>,
    forfeit: Option<(PlayerId, String)>,
    drawn: bool,
    finished: bool,
}

impl Source {
    /// The record of the match in `room`.
    pub fn of_room(room: &Room) -> Source {
        Source {
            id: room.id(),
            game: room.game().clone(),
            seed: room.seed(),
            seats: room.seats().clone(),
            actions: room.actions().to_vec(),
            forfeit: room.forfeit().cloned(),
            drawn: room.agreed_draw(),
            finished: room.finished(),
        }
    }

    /// The record of a finished match read from the store, its game and
    /// seats already parsed.
    pub(crate) fn finished(m: StoredMatch, game: Arc<dyn DynGame>, seats: [Seat; 2]) -> Source {
        Source {
            id: m.id,
            game,
            seed: m.seed,
            seats,
            forfeit: m.forfeit_by(),
            actions: m.actions,
            drawn: m.agreed_draw,
            finished: true,
        }
    }
}

/// Match `cell` at `step` (clamped to its length) seen from `view`, as
/// JSON: a view (its `steps` the step shown, `replay_of` the match's
/// length, nothing playable), or for the full view
/// `{"full": true, "steps", "replay_of", "views": [seat 0's, seat 1's]}`.
pub async fn view(
    cell: &Cell,
    step: usize,
    view: Viewpoint,
    asker: Option<PlayerId>,
) -> Result<Vec<u8>, MatchError> {
    let source = Source::of_room(&*cell.room().read().await);
    view_of(source, step, view, asker).await
}

/// [`view`] of the match recorded in `source`.
pub async fn view_of(
    source: Source,
    step: usize,
    view: Viewpoint,
    asker: Option<PlayerId>,
) -> Result<Vec<u8>, MatchError> {
    allowed(source.finished, view, asker)?;
    let Source {
        id,
        game,
        seed,
        seats,
        actions,
        forfeit,
        drawn,
        finished: _,
    } = source;
    let total = actions.len();
    let step = step.min(total);
    // The forfeit ends the match after its last step only.
    let forfeit = forfeit.filter(|_| step == total);
    let mut room = tokio::task::spawn_blocking(move || {
        Room::replay(
            id,
            game,
            seed,
            seats,
            [None, None],
            &actions[..step],
            forfeit,
        )
    })
    .await
    .map_err(|e| internal("replaying a match", e))??;
    if drawn && step == total {
        room.set_agreed_draw();
    }
    let extra = Extra {
        replay_of: Some(total),
        ..Extra::default()
    };
    if view != Viewpoint::Full {
        return Ok(views::view(&room, view.seat(), extra)?);
    }
    let mut both = Vec::with_capacity(2);
    for seat in PlayerId::BOTH {
        let bytes = views::view(&room, Some(seat), extra)?;
        let value: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| internal("a view", e))?;
        both.push(value);
    }
    serde_json::to_vec(&serde_json::json!({
        "id": id,
        "full": true,
        "steps": step,
        "replay_of": total,
        "views": both,
    }))
    .map_err(|e| internal("serialising a replay", e))
}

/// The record (the game's rules, seed and actions, as JSON) of the
/// finished match `cell`.
pub async fn record(cell: &Cell) -> Result<String, MatchError> {
    let room = cell.room().read().await;
    if !room.finished() {
        return Err(MatchError::RecordTooEarly);
    }
    Ok(room.game().record_json(room.seed(), room.actions())?)
}

/// The notation of the finished match `cell`: a header, then a line
/// per step (`STEP. P0 ACTION`, chance as `chance`), then the forfeit.
pub async fn notation(cell: &Cell) -> Result<String, MatchError> {
    notation_of(&*cell.room().read().await)
}

/// [`notation`] of the match in `room`.
pub fn notation_of(room: &Room) -> Result<String, MatchError> {
    if !room.finished() {
        return Err(MatchError::NotationTooEarly);
    }
    let seats = room.seats();
    let mut out = format!(
        "# {}\n# seed {}\n# P0 {}\n# P1 {}\n",
        room.game().name(),
        room.seed(),
        seats[0],
        seats[1]
    );
    for (step, (&id, entry)) in room.actions().iter().zip(room.log()).enumerate() {
        let by = entry
            .by()
            .map_or_else(|| "chance".to_owned(), |p| p.to_string());
        out.push_str(&format!("{step}. {by} {}\n", room.game().action_text(id)?));
    }
    if let Some((seat, reason)) = room.forfeit() {
        out.push_str(&format!("# {seat} forfeits: {reason}\n"));
    }
    if room.agreed_draw() {
        out.push_str("# draw agreed\n");
    }
    Ok(out)
}
