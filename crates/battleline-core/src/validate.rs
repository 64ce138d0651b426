//! Validation of a state from outside: deserialised, built or parsed. One
//! check for all three, so that anything accepted is a state the engine
//! can play on.

use game_traits::{Outcome, PerPlayer, PlayerId};
use serde::Deserialize;

use crate::card::{Card, CardSet, Deck, Tactic};
use crate::error::BattleLineError;
use crate::rules::{ClaimTiming, EnvironmentTactics, LastPass, Rules};
use crate::state::{BattleLine, Phase, Table, Top, HAND_SIZE, MAX_GAME_LENGTH};

#[derive(Deserialize)]
pub(crate) struct RawBattleLine {
    rules: Rules,
    table: Table,
    hands: PerPlayer<CardSet>,
    pools: [CardSet; 2],
    tops: [Top; 2],
    revealed: PerPlayer<CardSet>,
}

impl TryFrom<RawBattleLine> for BattleLine {
    type Error = BattleLineError;
    fn try_from(r: RawBattleLine) -> Result<Self, BattleLineError> {
        let s = BattleLine {
            rules: r.rules,
            table: r.table,
            hands: r.hands,
            pools: r.pools,
            tops: r.tops,
            revealed: r.revealed,
        };
        s.validate().map_err(BattleLineError::InvalidState)?;
        Ok(s)
    }
}

impl BattleLine {
    /// Checks that the state agrees with itself: every card in exactly one
    /// place, each flag consistent, the records of tactics and Leaders, the
    /// turn counters and the phase fitting the cards.
    pub(crate) fn validate(&self) -> Result<(), &'static str> {
        let t = &self.table;
        for f in &t.flags {
            f.check()?;
        }
        if !self.tops.iter().all(Top::is_valid) {
            return Err("gap in returned cards");
        }
        self.check_cards()?;
        // Who laid Fog and Mud is recorded exactly when the rules can move them.
        let record = self.rules.environment_tactics == EnvironmentTactics::Movable;
        let owners_ok = t.flags.iter().all(|f| {
            (f.fog_owner().is_some() == (record && f.env().fog))
                && (f.mud_owner().is_some() == (record && f.env().mud))
        });
        if !owners_ok {
            return Err("environment owners contradict the rules");
        }
        for p in PlayerId::all() {
            if self.hands[p].len() > HAND_SIZE + 2 {
                return Err("hand too large");
            }
            if !self.revealed[p]
                .difference(self.hands[p.other()])
                .is_empty()
                || (!self.revealed[p].is_empty() && t.scout_by != Some(p))
            {
                return Err("revealed cards not in the opponent's hand");
            }
        }
        if self.tops.iter().any(|x| !x.is_empty()) && t.scout_by.is_none() {
            return Err("returned cards without Scout");
        }
        if let Some(p) = t.scout_by {
            if !t.discards[p].contains(Card::tactic(Tactic::Scout)) {
                return Err("Scout not played");
            }
        }
        let [a, b] = t.tactics_played.into_array();
        // Every tactics card out of the hands and the decks was played by someone.
        let unplayed = self.hands[PlayerId::P0]
            .union(self.hands[PlayerId::P1])
            .union(self.pools[Deck::Tactics.index()])
            .union(self.tops[Deck::Tactics.index()].set())
            .intersection(CardSet::ALL_TACTICS)
            .len();
        let in_game = self.rules.deck_cards(Deck::Tactics).len();
        if a > 10 || b > 10 || (a + b) as usize + unplayed != in_game || a.abs_diff(b) > 1 {
            return Err("tactics counts");
        }
        if t.moves > MAX_GAME_LENGTH {
            return Err("move counter beyond any game");
        }
        for p in PlayerId::all() {
            // Leaders never change sides (Traitor takes troops only), so a
            // Leader on a side was played by that player, and the limit
            // leaves at most one there.
            let leaders: usize = t
                .flags
                .iter()
                .map(|f| {
                    f.side(p)
                        .iter()
                        .filter(|c| c.as_tactic().is_some_and(Tactic::is_leader))
                        .count()
                })
                .sum();
            if leaders > 1 || (leaders == 1 && !t.leaders_played[p]) {
                return Err("Leaders on the table contradict the Leader record");
            }
        }
        self.check_turn()
    }

    /// Every card is in exactly one place, of the right deck.
    fn check_cards(&self) -> Result<(), &'static str> {
        let t = &self.table;
        let mut zones: Vec<CardSet> = Vec::with_capacity(16);
        zones.extend(self.hands.values().copied());
        zones.extend(t.discards.values().copied());
        for d in Deck::ALL {
            let top = self.tops[d.index()].set();
            if !self.pools[d.index()]
                .union(top)
                .difference(d.cards())
                .is_empty()
            {
                return Err("card in the wrong deck");
            }
            zones.push(self.pools[d.index()]);
            zones.push(top);
        }
        let mut fog = CardSet::EMPTY;
        let mut mud = CardSet::EMPTY;
        for f in &t.flags {
            zones.push(
                f.side(PlayerId::P0)
                    .cards()
                    .union(f.side(PlayerId::P1).cards()),
            );
            for (on, card, acc) in [
                (f.env().fog, Tactic::Fog, &mut fog),
                (f.env().mud, Tactic::Mud, &mut mud),
            ] {
                if on {
                    if acc.contains(Card::tactic(card)) {
                        return Err("environment card twice");
                    }
                    acc.insert(Card::tactic(card));
                }
            }
        }
        zones.push(fog);
        zones.push(mud);
        let mut all = CardSet::EMPTY;
        for z in zones {
            if !all.intersection(z).is_empty() {
                return Err("card in two places");
            }
            all = all.union(z);
        }
        // Without tactics the ten tactics cards are out of the game.
        if all != self.rules.cards() {
            return Err("card missing");
        }
        Ok(())
    }

    /// The turn counters, the outcome and the phase agree with each other
    /// and with the cards.
    fn check_turn(&self) -> Result<(), &'static str> {
        let t = &self.table;
        if t.draws_due > 3
            || t.returns_due > 2
            || t.drawn > 3
            || t.passes > 2
            || (t.settled && t.passes != 2)
        {
            return Err("turn counters");
        }
        let over = t.phase == Phase::Over;
        if over != t.outcome.is_some() || (t.settled && !over) {
            return Err("outcome and phase disagree");
        }
        if t.passes == 2 && !t.settled {
            // Two passes and not settled: the passer's claim step before the
            // end rule, or a game that a claim in that step won.
            let claim_step = self.rules.last_pass == LastPass::ClaimFirst
                && self.rules.claim_timing == ClaimTiming::BeforeDraw;
            let ok = claim_step
                && match (t.phase, t.outcome) {
                    (Phase::Claim, _) => t.draws_due == 0 && t.returns_due == 0 && t.drawn == 0,
                    (Phase::Over, Some(Outcome::Win(w))) => t.claimed(w).is_victory(),
                    _ => false,
                };
            if !ok {
                return Err("two passes in a row but the end rule did not settle the game");
            }
        }
        // One Scout puts back two cards at most, counting those still due.
        let due = if t.phase == Phase::Return {
            t.returns_due as usize
        } else {
            0
        };
        if self.tops[0].len() + self.tops[1].len() + due > 2 {
            return Err("more than two cards returned");
        }
        if !over && PlayerId::all().any(|p| t.claimed(p).is_victory()) {
            return Err("game should be over");
        }
        let table_empty = t
            .flags
            .iter()
            .all(|f| PlayerId::all().all(|p| f.side(p).is_empty()));
        let bad_phase = match t.phase {
            Phase::Setup => {
                !table_empty
                    || self.hands.values().any(|h| {
                        h.len() > HAND_SIZE || !h.difference(CardSet::ALL_TROOPS).is_empty()
                    })
                    || self.hands[PlayerId::P0].len() + self.hands[PlayerId::P1].len()
                        >= 2 * HAND_SIZE
                    || t.scout_by.is_some()
                    || self.pools[0].is_empty()
            }
            Phase::Deal(d) => self.pools[d.index()].is_empty() || t.draws_due == 0,
            Phase::Return => {
                t.returns_due == 0
                    || t.scout_by != Some(t.player)
                    || self.hands[t.player].len() < t.returns_due as usize
            }
            _ => false,
        };
        if bad_phase {
            return Err("phase contradicts the cards");
        }
        Ok(())
    }
}
