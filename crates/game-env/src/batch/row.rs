//! One game of the batch: a call's operation on it, chance and its
//! built-in bot played until a player without one decides, its row of the
//! output written.

use game_traits::{GameRng, PlayerId, Turn};

use super::{episode_rng, opponent_rng, Context, MaskCell, RowOp, SeatBot, Slot, StepOutput};
use crate::dynamic::{DynGame, DynState};
use crate::opponent::Opponent;
use crate::{BotFailure, EnvError};

/// Carries out `op` on one game, then chance and its built-in bot until a
/// player without one decides; resets a finished episode; writes row
/// `row` of `out`.
pub(super) fn step_slot<M: MaskCell>(
    slot: &mut Slot,
    op: RowOp,
    ctx: &Context<'_>,
    out: &mut StepOutput<'_, M>,
    row: usize,
) -> Result<(), EnvError> {
    let mut rewards = [0.0f32; 2];
    let (mut terminated, mut truncated) = (false, false);
    let mut length = 0;
    match op {
        RowOp::Reset { first } => {
            let next = if first { 0 } else { slot.episode + 1 };
            new_episode(slot, ctx, next);
        }
        RowOp::Refresh => {}
        RowOp::Keep => {
            write_statistics(out, row, [0.0; 2], false, false, 0);
            return Ok(());
        }
        RowOp::Play(id) => {
            slot.state.apply_id(id)?;
            slot.steps += 1;
            // The built-in bot failing to decide (a crash, a timeout, an
            // illegal choice) forfeits its game, as in the arena: this
            // slot's episode ends with the loss, and no other slot is
            // touched by it, so a step never stops half-way.
            let forfeit = match advance(slot) {
                Ok(()) => None,
                Err(EnvError::Bot { .. }) => slot.opponent.as_ref().map(|((seat, _), _)| *seat),
                Err(e) => return Err(e),
            };
            if forfeit.is_some() || slot.state.is_terminal() {
                terminated = true;
            } else if ctx.max_steps.is_some_and(|m| slot.steps >= m) {
                truncated = true;
            }
            if terminated || truncated {
                let r = match forfeit {
                    Some(loser) => forfeit_returns(ctx.game, loser),
                    None => slot.state.returns(),
                };
                rewards = [r[0] as f32, r[1] as f32];
                length = slot.steps;
                if !out.final_observations.is_empty() {
                    let size = ctx.tensor;
                    let finals = &mut out.final_observations[row * 2 * size..(row + 1) * 2 * size];
                    let (first, second) = finals.split_at_mut(size);
                    slot.state.encode(PlayerId::P0, first)?;
                    slot.state.encode(PlayerId::P1, second)?;
                }
                let next = slot.episode + 1;
                new_episode(slot, ctx, next);
            }
        }
    }
    advance(slot)?;
    write_statistics(out, row, rewards, terminated, truncated, length);
    let seat = match slot.state.turn() {
        Turn::Player(p) => p,
        // A game that ends before any decision (none here does) is shown
        // from seat 0 with an empty mask.
        _ => PlayerId::P0,
    };
    out.to_move[row] = seat.index() as u8;
    if !out.observations.is_empty() {
        let tensor = ctx.tensor;
        slot.state.encode_update(
            seat,
            &mut out.observations[row * tensor..(row + 1) * tensor],
            &mut slot.written,
        )?;
    }
    if !out.masks.is_empty() {
        let space = ctx.space;
        let mask = &mut out.masks[row * space..(row + 1) * space];
        if slot.state.is_terminal() {
            mask.fill(M::default());
        } else {
            M::write(slot.state.as_mut(), mask, &mut slot.scratch)?;
        }
    }
    Ok(())
}

/// Writes a row's rewards, flags and episode statistics (the returns are
/// the rewards: the games pay only at their end).
fn write_statistics<M: MaskCell>(
    out: &mut StepOutput<'_, M>,
    row: usize,
    rewards: [f32; 2],
    terminated: bool,
    truncated: bool,
    length: u32,
) {
    out.rewards[2 * row..2 * row + 2].copy_from_slice(&rewards);
    out.terminated[row] = terminated;
    out.truncated[row] = truncated;
    if !out.episode_returns.is_empty() {
        out.episode_returns[2 * row..2 * row + 2].copy_from_slice(&rewards);
    }
    if !out.episode_lengths.is_empty() {
        out.episode_lengths[row] = length;
    }
}

/// Both seats' returns when `loser` forfeits: the game's worst return for
/// him, its best for the other seat.
fn forfeit_returns(game: &dyn DynGame, loser: PlayerId) -> [f64; 2] {
    let info = game.info();
    let mut returns = [info.max_return; 2];
    returns[loser.index()] = info.min_return;
    returns
}

fn new_episode(slot: &mut Slot, ctx: &Context<'_>, episode: u64) {
    slot.episode = episode;
    slot.steps = 0;
    slot.state = ctx.game.new_state();
    slot.chance = episode_rng(ctx.seed, slot.index, episode);
    slot.opponent_rng = opponent_rng(ctx.seed, slot.index, episode);
    // A fresh bot each episode: nothing carries over between games.
    slot.opponent = slot.next_opponent.clone().map(|sb| {
        let bot = (sb.1)();
        (sb, bot)
    });
}

/// Chance events and the built-in bot's decisions until a player without
/// one decides or the game ends.
fn advance(slot: &mut Slot) -> Result<(), EnvError> {
    let Slot {
        state,
        chance,
        opponent,
        opponent_rng,
        ..
    } = slot;
    play_until_decision(state, chance, opponent, opponent_rng)
}

/// [`advance`] on a state about to replace the slot's.
pub(super) fn advance_state(
    state: &mut Box<dyn DynState>,
    slot: &mut Slot,
) -> Result<(), EnvError> {
    play_until_decision(
        state,
        &mut slot.chance,
        &mut slot.opponent,
        &mut slot.opponent_rng,
    )
}

fn play_until_decision(
    state: &mut Box<dyn DynState>,
    chance: &mut GameRng,
    opponent: &mut Option<(SeatBot, Box<dyn Opponent>)>,
    opponent_rng: &mut GameRng,
) -> Result<(), EnvError> {
    loop {
        match state.turn() {
            Turn::Chance => {
                state.play_chance(chance);
            }
            Turn::Player(p) => match opponent.as_mut() {
                Some(((seat, _), bot)) if *seat == p => {
                    let id = bot.choose(state.as_ref(), p, opponent_rng)?;
                    state.apply_id(id).map_err(|_| EnvError::Bot {
                        bot: bot.name(),
                        failure: BotFailure::Illegal(id as u64),
                    })?;
                }
                _ => return Ok(()),
            },
            Turn::Terminal => return Ok(()),
        }
    }
}
