//! Validation of a state from outside: deserialised, built or parsed. One
//! check for all three, so that anything accepted is a state the engine
//! can play on.

use game_traits::{Outcome, PerPlayer, PlayerId};
use serde::Deserialize;

use crate::card::{Card, CardSet, Deck, Tactic};
use crate::error::BattleLineError;
use crate::flag_bits::FlagBits;
use crate::proof_cache::ProofCache;
use crate::rules::{ClaimTiming, EnvironmentTactics, LastPass, LeaderLimit, Rules};
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
        let mut s = BattleLine {
            rules: r.rules,
            table: r.table,
            hands: r.hands,
            pools: r.pools,
            tops: r.tops,
            revealed: r.revealed,
            proofs: ProofCache::default(),
            bits: FlagBits::default(),
        };
        s.validate().map_err(BattleLineError::InvalidState)?;
        s.rebuild();
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
        for p in PlayerId::all() {
            // Leaders never change sides (Traitor takes troops only) and
            // never go back to a hand: a played Leader lies on its player's
            // side or in his discards (Deserter, Redeploy and Mud send cards
            // to their owner's discards). So those say exactly whether he
            // played one; at most one can be on his side, and under
            // OncePerGame he played at most one at all.
            let is_leader = |c: &Card| c.as_tactic().is_some_and(Tactic::is_leader);
            let on_table: usize = t
                .flags
                .iter()
                .map(|f| f.side(p).iter().filter(is_leader).count())
                .sum();
            let played = on_table + t.discards[p].iter().filter(is_leader).count();
            let once = self.rules.leader_limit == LeaderLimit::OncePerGame;
            if on_table > 1 || (once && played > 1) || t.leaders_played[p] != (played > 0) {
                return Err("Leaders on the table contradict the Leader record");
            }
        }
        self.check_turn()?;
        // Every legal action lowers `remaining_actions` by at least one
        // (chance outcomes never raise it) and a new game starts at most at
        // MAX_GAME_LENGTH, so this holds in every state play reaches and
        // bounds the move counter of each: a state that breaks it has a
        // counter no game reaches, and would pass the bound in play.
        if u64::from(t.moves) + u64::from(self.remaining_actions()) > u64::from(MAX_GAME_LENGTH) {
            return Err("move counter beyond any game");
        }
        Ok(())
    }

    /// An upper bound on the actions (decisions and chance outcomes) left
    /// in the game, from public facts only (the counts of the hidden cards,
    /// the phase and its counters), so every determinisation of an
    /// observation has the same bound. It falls by at least one with each
    /// action: the claims left are the unclaimed flags; the deal left is
    /// the cards not yet dealt; the turn under way has its due draws (a
    /// draw and its deal each), its due returns and an end of turn left;
    /// then each later turn plays one of the cards still in a hand or a
    /// deck (at most 3 actions, 9 with Scout) or passes (2), and passes
    /// never come twice in a row but at the end, so there are at most
    /// `u + 2 - passes` of them when `u` cards are left to play.
    pub(crate) fn remaining_actions(&self) -> u32 {
        let t = &self.table;
        let claims = t.flags.iter().filter(|f| f.claimed().is_none()).count() as u32;
        let unplayed = (self.hands[PlayerId::P0].len()
            + self.hands[PlayerId::P1].len()
            + self.pools[0].len()
            + self.pools[1].len()
            + self.tops[0].len()
            + self.tops[1].len()) as u32;
        let scout = Card::tactic(Tactic::Scout);
        let scout_left =
            u32::from(self.rules.tactics && !t.discards.values().any(|d| d.contains(scout)));
        let passes = u32::from(t.passes);
        let later_turns = if passes >= 2 {
            0
        } else {
            5 * unplayed + 6 * scout_left + 4 - 2 * passes
        };
        let (draws, returns) = (u32::from(t.draws_due), u32::from(t.returns_due));
        let this_turn = match t.phase {
            Phase::Over => return 0,
            Phase::Setup => {
                let dealt =
                    (self.hands[PlayerId::P0].len() + self.hands[PlayerId::P1].len()) as u32;
                return (2 * HAND_SIZE as u32).saturating_sub(dealt) + later_turns + claims;
            }
            Phase::Play => 0,
            Phase::Claim => 2 * draws + returns + u32::from(draws == 0),
            Phase::Draw => 2 * draws + returns,
            Phase::Deal(_) => (2 * draws + returns).saturating_sub(1),
            Phase::Return => returns,
        };
        this_turn + later_turns + claims
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
                let first = self.rules.first_player;
                let (a, b) = (self.hands[first].len(), self.hands[first.other()].len());
                // The deal alternates from the first player, before anyone
                // has moved: nothing on the table or in the discards yet.
                !table_empty
                    || t.flags.iter().any(|f| *f != crate::flag::Flag::new())
                    || t.discards.values().any(|d| !d.is_empty())
                    || t.leaders_played.values().any(|&l| l)
                    || t.player != first
                    || t.moves != 0
                    || t.draws_due != 0
                    || t.returns_due != 0
                    || t.drawn != 0
                    || t.passes != 0
                    || !(a == b || a == b + 1)
                    || self.hands.values().any(|h| {
                        h.len() > HAND_SIZE || !h.difference(CardSet::ALL_TROOPS).is_empty()
                    })
                    || a + b >= 2 * HAND_SIZE
                    || t.scout_by.is_some()
                    || self.pools[0].is_empty()
            }
            Phase::Over => false,
            _ => self.check_turn_counters().is_err(),
        };
        if bad_phase {
            return Err("phase contradicts the cards");
        }
        Ok(())
    }

    /// The counters of a turn under way against its phase, Scout and the
    /// hands: exactly the combinations the turn's steps produce (see
    /// `engine.rs`), so that every state play reaches from an accepted
    /// one is accepted too.
    fn check_turn_counters(&self) -> Result<(), ()> {
        let t = &self.table;
        let p = t.player;
        let mine = self.hands[p].len();
        let (draws, returns, drawn) = (t.draws_due, t.returns_due, t.drawn);
        // The other player's turn ended with at most a full hand (only
        // Scout's draws exceed it, until its returns).
        let ok = |c: bool| if c { Ok(()) } else { Err(()) };
        ok(self.hands[p.other()].len() <= HAND_SIZE)?;
        let tops = self.tops[0].len() + self.tops[1].len();
        // A Scout turn under way: the player's Scout is in his discards
        // (checked above) and none of its returns are on the decks yet.
        let scout_turn = returns == 2 && t.scout_by == Some(p) && tops == 0;
        let decks = self.deck_len(Deck::Troop) + self.deck_len(Deck::Tactics);
        match t.phase {
            Phase::Play => {
                ok(draws == 0 && returns == 0 && drawn == 0 && t.passes <= 1 && mine <= HAND_SIZE)
            }
            Phase::Claim => {
                ok(self.rules.claim_timing == ClaimTiming::BeforeDraw && drawn == 0)?;
                if t.passes == 0 {
                    // After a card: one draw due, or Scout's three.
                    ok(mine < HAND_SIZE
                        && ((draws == 1 && returns == 0) || (draws == 3 && scout_turn)))
                } else {
                    // After a pass: nothing to draw, only the end of the turn.
                    ok(draws == 0 && returns == 0 && mine <= HAND_SIZE)
                }
            }
            Phase::Draw | Phase::Deal(_) => {
                let deck_ok = match t.phase {
                    Phase::Deal(d) => !self.pools[d.index()].is_empty(),
                    _ => decks > 0,
                };
                ok(deck_ok
                    && t.passes == 0
                    && draws >= 1
                    && ((draws == 1 && returns == 0 && drawn == 0)
                        || (scout_turn && draws + drawn == 3))
                    && mine < HAND_SIZE + drawn as usize)
            }
            Phase::Return => ok(t.passes == 0
                && draws == 0
                && returns >= 1
                && t.scout_by == Some(p)
                && drawn <= 3
                && tops + returns as usize == (drawn as usize).min(2)
                && mine >= returns as usize
                && mine + tops < HAND_SIZE + drawn as usize),
            Phase::Setup | Phase::Over => Ok(()),
        }
    }
}
