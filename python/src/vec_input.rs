//! What the vectorised environment reads from Python: action ids, chosen
//! rows, built-in bots per game.

use std::sync::{Arc, Mutex};

use game_env::{BotSpec, DynGame, SharedOpponentFactory};
use game_traits::PlayerId;
use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::api::seat;
use crate::errors::{to_py, GameError, GameSpecError, IllegalActionError};

/// The action ids of `actions` (a numpy integer array or a sequence of
/// ints) into `out`.
pub fn read_actions(
    actions: &Bound<'_, PyAny>,
    space: usize,
    out: &mut Vec<usize>,
) -> PyResult<()> {
    out.clear();
    let bad = |a: i64| {
        IllegalActionError::new_err(format!(
            "action id {a} is outside the action space of {space}"
        ))
    };
    let mut push = |a: i64| -> PyResult<()> {
        let id = usize::try_from(a)
            .ok()
            .filter(|&i| i < space)
            .ok_or_else(|| bad(a))?;
        out.push(id);
        Ok(())
    };
    if let Ok(arr) = actions.extract::<PyReadonlyArray1<'_, i64>>() {
        for &a in arr.as_array().iter() {
            push(a)?;
        }
    } else if let Ok(arr) = actions.extract::<PyReadonlyArray1<'_, i32>>() {
        for &a in arr.as_array().iter() {
            push(i64::from(a))?;
        }
    } else if let Ok(arr) = actions.extract::<PyReadonlyArray1<'_, u32>>() {
        for &a in arr.as_array().iter() {
            push(i64::from(a))?;
        }
    } else {
        let list: Vec<i64> = actions.extract().map_err(|_| {
            GameError::new_err("actions must be a 1-D integer numpy array or a sequence of ints")
        })?;
        for a in list {
            push(a)?;
        }
    }
    Ok(())
}

/// The games `rows` chooses, as one flag per game into `out`: a boolean
/// numpy array of `games` flags, or a sequence of game indices.
pub fn read_rows(rows: &Bound<'_, PyAny>, games: usize, out: &mut Vec<bool>) -> PyResult<()> {
    out.clear();
    if let Ok(arr) = rows.extract::<PyReadonlyArray1<'_, bool>>() {
        if arr.len() != games {
            return Err(GameError::new_err(format!(
                "rows holds {} flags, one per game ({games}) needed",
                arr.len()
            )));
        }
        out.extend(arr.as_array().iter().copied());
        return Ok(());
    }
    let indices: Vec<i64> = rows.extract().map_err(|_| {
        GameError::new_err("rows must be a boolean numpy array or a sequence of game indices")
    })?;
    out.resize(games, false);
    for i in indices {
        let at = usize::try_from(i)
            .ok()
            .filter(|&i| i < games)
            .ok_or_else(|| GameError::new_err(format!("no game {i} among {games}")))?;
        out[at] = true;
    }
    Ok(())
}

/// A maker of fresh `name` bots for `game`, made once here so that a bot
/// the game cannot make is refused now; the maker then cannot fail.
pub fn bot_factory(game: &Arc<dyn DynGame>, name: &str) -> PyResult<SharedOpponentFactory> {
    let spec: BotSpec = name
        .parse()
        .map_err(|e: game_env::BotSpecError| GameSpecError::new_err(e.to_string()))?;
    let first = Mutex::new(Some(game.bot(spec).map_err(to_py)?));
    let g = game.clone();
    Ok(Arc::new(move || {
        let taken = first.lock().ok().and_then(|mut f| f.take());
        match taken {
            Some(bot) => bot,
            None => match g.bot(spec) {
                Ok(bot) => bot,
                Err(e) => unreachable!("{spec} was made once for this game: {e}"),
            },
        }
    }))
}

/// One value per game from `value`: a list of `games` values, or one
/// value for every game.
pub fn per_game<'py, T: Clone>(
    value: &Bound<'py, PyAny>,
    games: usize,
    what: &str,
    read: impl Fn(&Bound<'py, PyAny>) -> PyResult<T>,
) -> PyResult<Vec<T>> {
    if let Ok(list) = value.cast::<pyo3::types::PyList>() {
        if list.len() != games {
            return Err(GameError::new_err(format!(
                "{what} lists {} values, one per game ({games}) needed",
                list.len()
            )));
        }
        return list.iter().map(|v| read(&v)).collect();
    }
    Ok(vec![read(value)?; games])
}

/// The built-in bot of each game from `opponent` (a bot name, None, or a
/// list of those per game) and `seats` (a seat, or a list per game).
pub fn opponents(
    game: &Arc<dyn DynGame>,
    opponent: &Bound<'_, PyAny>,
    seats: &Bound<'_, PyAny>,
    games: usize,
) -> PyResult<Vec<Option<(PlayerId, SharedOpponentFactory)>>> {
    let seats = per_game(seats, games, "opponent_seat", |v| seat(v.extract()?))?;
    // One maker per distinct name, shared by the games that name it.
    let mut made: Vec<(String, SharedOpponentFactory)> = Vec::new();
    let names = per_game(opponent, games, "opponent", |v| {
        v.extract::<Option<String>>()
    })?;
    names
        .into_iter()
        .zip(seats)
        .map(|(name, seat)| {
            let Some(name) = name else { return Ok(None) };
            if let Some((_, f)) = made.iter().find(|(n, _)| *n == name) {
                return Ok(Some((seat, f.clone())));
            }
            let f = bot_factory(game, &name)?;
            made.push((name, f.clone()));
            Ok(Some((seat, f)))
        })
        .collect()
}
