//! The game state and the [`Game`] implementation.

use game_traits::{Game, Outcome, PlayerId, Turn};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::action::{Action, ACTION_SPACE};
use crate::card::{Card, CardSet, Deck, Tactic};
use crate::error::BattleLineError;
use crate::flag::{Flag, FlagId, FLAGS};
use crate::observation::Observation;
use crate::proof::{available_troops, claim_holds};
use crate::rules::{ClaimTiming, EnvironmentTactics, LeaderLimit, Rules, WildCards};

/// Cards in a full hand.
pub const HAND_SIZE: usize = 7;

/// Upper bound on the actions of any game: 14 deals; at most 72 turns that
/// play a card (at most 72 cards ever enter the hands: 70 plus the two Scout
/// returns) of at most 3 actions (play, draw, deal), plus 6 for the Scout
/// turn's extra draws and returns; at most 74 passing turns (never two in a
/// row but the last) of at most 2 actions; and 9 claims.
pub const MAX_GAME_LENGTH: u32 = 14 + 72 * 3 + 6 + 74 * 2 + 9;

/// Where a turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// Chance: dealing the starting hands.
    Setup,
    /// The player plays a card, a tactic, or passes (and, under
    /// [`ClaimTiming::StartOfTurn`], claims first).
    Play,
    /// After playing: claims, then the choice of deck.
    Claim,
    /// Further draws (Scout), or the choice of deck when claims are not
    /// made here.
    Draw,
    /// Chance: the next card of a deck.
    Deal(Deck),
    /// Scout: returning cards to the decks.
    Return,
    /// The game is over.
    Over,
}

/// Cards returned by Scout on top of a deck, bottom first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Top([Option<Card>; 2]);

impl Top {
    /// Number of cards.
    pub fn len(&self) -> usize {
        self.0.iter().flatten().count()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0[0].is_none()
    }

    /// The cards, bottom first.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.0.iter().flatten().copied()
    }

    fn is_valid(&self) -> bool {
        !(self.0[0].is_none() && self.0[1].is_some())
    }

    pub(crate) fn with(mut self, card: Card) -> Top {
        self.push(card);
        self
    }

    fn push(&mut self, card: Card) {
        if let Some(slot) = self.0.iter_mut().find(|s| s.is_none()) {
            *slot = Some(card);
        }
    }

    fn pop(&mut self) -> Option<Card> {
        if self.0[1].is_some() {
            self.0[1].take()
        } else {
            self.0[0].take()
        }
    }
}

/// Everything both players see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Table {
    pub(crate) flags: [Flag; FLAGS],
    pub(crate) discards: [CardSet; 2],
    pub(crate) tactics_played: [u8; 2],
    pub(crate) leaders_played: [bool; 2],
    pub(crate) phase: Phase,
    pub(crate) player: PlayerId,
    pub(crate) draws_due: u8,
    pub(crate) returns_due: u8,
    pub(crate) drawn: u8,
    pub(crate) passes: u8,
    pub(crate) scout_by: Option<PlayerId>,
    pub(crate) moves: u32,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) settled: bool,
}

impl Table {
    fn new(first: PlayerId) -> Table {
        Table {
            flags: [Flag::new(); FLAGS],
            discards: [CardSet::EMPTY; 2],
            tactics_played: [0; 2],
            leaders_played: [false; 2],
            phase: Phase::Setup,
            player: first,
            draws_due: 0,
            returns_due: 0,
            drawn: 0,
            passes: 0,
            scout_by: None,
            moves: 0,
            outcome: None,
            settled: false,
        }
    }

    /// The flags from left to right.
    pub fn flags(&self) -> &[Flag; FLAGS] {
        &self.flags
    }

    /// Cards laid face up beside the tactics deck on `player`'s side:
    /// his played guile tactics and the cards discarded from his side.
    pub fn discards(&self, player: PlayerId) -> CardSet {
        self.discards[player.index() & 1]
    }

    /// Tactics cards `player` has played.
    pub fn tactics_played(&self, player: PlayerId) -> u8 {
        self.tactics_played[player.index() & 1]
    }

    /// The phase of the turn.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whose turn it is.
    pub fn player(&self) -> PlayerId {
        self.player
    }

    /// Who played Scout, if anyone.
    pub fn scout_by(&self) -> Option<PlayerId> {
        self.scout_by
    }

    /// The result, once over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game ended by the end rule (two passes in a row).
    pub fn settled(&self) -> bool {
        self.settled
    }

    /// Flags claimed by `player` as a bit mask (bit `i` for flag `i`).
    pub fn claimed_mask(&self, player: PlayerId) -> u16 {
        let mut m = 0;
        for (i, f) in self.flags.iter().enumerate() {
            if f.claimed() == Some(player) {
                m |= 1 << i;
            }
        }
        m
    }

    /// The troop cards a claim proof must assume still available: all those
    /// not visible on the table or in the discards.
    pub fn available_troops(&self) -> CardSet {
        available_troops(&self.flags, self.discards[0].union(self.discards[1]))
    }
}

/// Whether claimed flags `mask` win: three adjacent or any five.
pub fn is_victory(mask: u16) -> bool {
    mask.count_ones() >= 5 || mask & mask >> 1 & mask >> 2 != 0
}

pub(crate) fn opp(p: PlayerId) -> PlayerId {
    PlayerId::new(1 - (p.index() & 1) as u8)
}

/// A game of Battle Line in progress: the public [`Table`], both hands and
/// the two decks (an unordered pool of unseen cards, plus the cards Scout
/// returned on top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawBattleLine")]
pub struct BattleLine {
    pub(crate) rules: Rules,
    pub(crate) table: Table,
    pub(crate) hands: [CardSet; 2],
    pub(crate) pools: [CardSet; 2],
    pub(crate) tops: [Top; 2],
    pub(crate) revealed: [CardSet; 2],
}

#[derive(Deserialize)]
struct RawBattleLine {
    rules: Rules,
    table: Table,
    hands: [CardSet; 2],
    pools: [CardSet; 2],
    tops: [Top; 2],
    revealed: [CardSet; 2],
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
    /// The public part.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// `player`'s hand.
    pub fn hand(&self, player: PlayerId) -> CardSet {
        self.hands[player.index() & 1]
    }

    /// Cards left in `deck` (returned cards included).
    pub fn deck_len(&self, deck: Deck) -> usize {
        self.pools[deck.index()].len() + self.tops[deck.index()].len()
    }

    /// Whether `player` may claim `flag` now by the rules of proof (ignoring
    /// whose turn it is).
    pub fn can_claim(&self, player: PlayerId, flag: FlagId) -> bool {
        let avail = self.table.available_troops();
        claim_holds(&self.table.flags[flag.index()], player, avail, &self.rules)
    }

    pub(crate) fn validate(&self) -> Result<(), &'static str> {
        let t = &self.table;
        let seat = |p: PlayerId| p.index() < 2;
        if !self.rules.is_valid() || !seat(t.player) || !t.scout_by.is_none_or(seat) {
            return Err("seat out of range");
        }
        if let Some(Outcome::Win(p)) = t.outcome {
            if !seat(p) {
                return Err("winner out of range");
            }
        }
        if !self.tops.iter().all(Top::is_valid) {
            return Err("gap in returned cards");
        }
        // Every card is in exactly one place.
        let mut zones: Vec<CardSet> = Vec::with_capacity(16);
        zones.extend(self.hands);
        zones.extend(t.discards);
        for d in Deck::ALL {
            let top: CardSet = self.tops[d.index()].cards().collect();
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
            zones.push(f.sides()[0].iter().chain(f.sides()[1].iter()).collect());
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
        // Who laid Fog and Mud is recorded exactly when the rules can move them.
        let record = self.rules.environment_tactics == EnvironmentTactics::Movable;
        let owners_ok = t.flags.iter().all(|f| {
            (f.fog_owner().is_some() == (record && f.env().fog))
                && (f.mud_owner().is_some() == (record && f.env().mud))
        });
        if !owners_ok {
            return Err("environment owners contradict the rules");
        }
        let mut all = CardSet::EMPTY;
        for z in zones {
            if !all.intersection(z).is_empty() {
                return Err("card in two places");
            }
            all = all.union(z);
        }
        if all != CardSet::ALL {
            return Err("card missing");
        }
        for p in [PlayerId::P0, PlayerId::P1] {
            let i = p.index();
            if self.hands[i].len() > HAND_SIZE + 2 {
                return Err("hand too large");
            }
            if !self.revealed[i].difference(self.hands[1 - i]).is_empty()
                || (!self.revealed[i].is_empty() && t.scout_by != Some(p))
            {
                return Err("revealed cards not in the opponent's hand");
            }
        }
        if self.tops.iter().any(|x| !x.is_empty()) && t.scout_by.is_none() {
            return Err("returned cards without Scout");
        }
        if let Some(p) = t.scout_by {
            if !t.discards[p.index()].contains(Card::tactic(Tactic::Scout)) {
                return Err("Scout not played");
            }
        }
        let [a, b] = t.tactics_played;
        // Every tactics card out of the hands and the decks was played by someone.
        let unplayed = self.hands[0]
            .union(self.hands[1])
            .union(self.pools[Deck::Tactics.index()])
            .union(self.tops[Deck::Tactics.index()].cards().collect())
            .intersection(CardSet::ALL_TACTICS)
            .len();
        if a > 10 || b > 10 || (a + b) as usize + unplayed != 10 || a.abs_diff(b) > 1 {
            return Err("tactics counts");
        }
        if t.moves > MAX_GAME_LENGTH {
            return Err("move counter beyond any game");
        }
        for p in [PlayerId::P0, PlayerId::P1] {
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
            if leaders > 1 || (leaders == 1 && !t.leaders_played[p.index()]) {
                return Err("Leaders on the table contradict the Leader record");
            }
        }
        if t.draws_due > 3
            || t.returns_due > 2
            || t.drawn > 3
            || t.passes > 2
            || (t.passes == 2) != t.settled
        {
            return Err("turn counters");
        }
        let over = t.phase == Phase::Over;
        if over != t.outcome.is_some() || (t.settled && !over) {
            return Err("outcome and phase disagree");
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
        if !over
            && (is_victory(t.claimed_mask(PlayerId::P0))
                || is_victory(t.claimed_mask(PlayerId::P1)))
        {
            return Err("game should be over");
        }
        let table_empty = t
            .flags
            .iter()
            .all(|f| f.sides().iter().all(|s| s.is_empty()));
        let bad_phase = match t.phase {
            Phase::Setup => {
                !table_empty
                    || self.hands.iter().any(|h| {
                        h.len() > HAND_SIZE || !h.difference(CardSet::ALL_TROOPS).is_empty()
                    })
                    || self.hands[0].len() + self.hands[1].len() >= 2 * HAND_SIZE
                    || t.scout_by.is_some()
                    || self.pools[0].is_empty()
            }
            Phase::Deal(d) => self.pools[d.index()].is_empty() || t.draws_due == 0,
            Phase::Return => {
                t.returns_due == 0
                    || t.scout_by != Some(t.player)
                    || self.hands[t.player.index()].len() < t.returns_due as usize
            }
            _ => false,
        };
        if bad_phase {
            return Err("phase contradicts the cards");
        }
        Ok(())
    }

    fn player(&self) -> PlayerId {
        self.table.player
    }

    fn tactics_allowed(&self, p: PlayerId) -> bool {
        let tp = self.table.tactics_played;
        tp[p.index()] <= tp[opp(p).index()]
    }

    fn leader_allowed(&self, p: PlayerId) -> bool {
        match self.rules.leader_limit {
            LeaderLimit::OncePerGame => !self.table.leaders_played[p.index()],
            LeaderLimit::OneOnTable => !self.table.flags.iter().any(|f| {
                f.side(p)
                    .iter()
                    .any(|c| c.as_tactic().is_some_and(Tactic::is_leader))
            }),
        }
    }

    /// Flags with a free slot for `p` as a bit mask.
    fn free_flags(&self, p: PlayerId) -> u16 {
        let mut m = 0;
        for (i, f) in self.table.flags.iter().enumerate() {
            if f.has_free_slot(p) {
                m |= 1 << i;
            }
        }
        m
    }

    /// The cards Redeploy and Deserter can take from `p` (his slot cards at
    /// unclaimed flags, and under [`EnvironmentTactics::Movable`] the Fog
    /// and Mud he laid there), and the flag of each card.
    fn movable(&self, p: PlayerId) -> (CardSet, [u8; 70]) {
        let mut set = CardSet::EMPTY;
        let mut at = [0u8; 70];
        let env = self.rules.environment_tactics == EnvironmentTactics::Movable;
        for (i, f) in self.table.flags.iter().enumerate() {
            if f.claimed().is_none() {
                for c in f.side(p).iter() {
                    set.insert(c);
                    at[c.index()] = i as u8;
                }
                if env {
                    for (owner, t) in [(f.fog_owner(), Tactic::Fog), (f.mud_owner(), Tactic::Mud)] {
                        if owner == Some(p) {
                            set.insert(Card::tactic(t));
                            at[Card::tactic(t).index()] = i as u8;
                        }
                    }
                }
            }
        }
        (set, at)
    }

    /// Unclaimed flags as a bit mask.
    fn unclaimed_flags(&self) -> u16 {
        let mut m = 0;
        for (i, f) in self.table.flags.iter().enumerate() {
            if f.claimed().is_none() {
                m |= 1 << i;
            }
        }
        m
    }

    /// Takes the environment card `t` laid by `owner` from flag `src`, the
    /// tactic being played by `remover`; cards pushed out of a side by
    /// Mud's going go to their owners' discards.
    fn take_environment(&mut self, remover: PlayerId, t: Tactic, src: usize) {
        let f = &mut self.table.flags[src];
        if t == Tactic::Fog {
            let _ = f.remove_fog();
        } else if let Ok(dropped) = f.remove_mud(remover) {
            for (d, c) in self.table.discards.iter_mut().zip(dropped) {
                if let Some(c) = c {
                    d.insert(c);
                }
            }
        }
    }

    /// Lays Fog or Mud (`t`) beside flag `to` for `p`.
    fn lay_environment(&mut self, p: PlayerId, t: Tactic, to: usize) {
        let f = &mut self.table.flags[to];
        let _ = if t == Tactic::Fog {
            f.add_fog()
        } else {
            f.add_mud()
        };
        if self.rules.environment_tactics == EnvironmentTactics::Movable {
            f.set_environment_owner(t, p);
        }
    }

    fn troop_playable(&self, p: PlayerId, free: u16) -> bool {
        !self.hands[p.index()]
            .intersection(CardSet::ALL_TROOPS)
            .is_empty()
            && free != 0
    }

    fn push_claims(&self, p: PlayerId, out: &mut Vec<Action>) {
        let mut avail = None;
        for (i, f) in self.table.flags.iter().enumerate() {
            if f.claimed().is_none() && f.is_complete(p) {
                let a = *avail.get_or_insert_with(|| self.table.available_troops());
                if claim_holds(f, p, a, &self.rules) {
                    if let Some(id) = FlagId::new(i) {
                        out.push(Action::Claim(id));
                    }
                }
            }
        }
    }

    fn push_draws(&self, out: &mut Vec<Action>) {
        let before = out.len();
        if self.table.draws_due > 0 {
            for d in Deck::ALL {
                if self.deck_len(d) > 0 {
                    out.push(Action::Draw(d));
                }
            }
        }
        if out.len() == before {
            out.push(Action::EndTurn);
        }
    }

    fn push_plays(&self, p: PlayerId, out: &mut Vec<Action>) {
        let hand = self.hands[p.index()];
        let free = self.free_flags(p);
        let tactics = self.tactics_allowed(p);
        let push_flags = |out: &mut Vec<Action>, card: Card, mask: u16| {
            let mut m = mask;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some(flag) = FlagId::new(i) {
                    out.push(Action::Play { card, flag });
                }
            }
        };
        for card in hand.iter() {
            match card.as_tactic() {
                None => push_flags(out, card, free),
                Some(_) if !tactics => {}
                Some(t) if t.is_leader() => {
                    if self.leader_allowed(p) {
                        push_flags(out, card, free)
                    }
                }
                Some(Tactic::CompanionCavalry | Tactic::ShieldBearers) => {
                    push_flags(out, card, free)
                }
                Some(t @ (Tactic::Fog | Tactic::Mud)) => {
                    let mut m = 0u16;
                    for (i, f) in self.table.flags.iter().enumerate() {
                        let taken = if t == Tactic::Fog {
                            f.env().fog
                        } else {
                            f.env().mud
                        };
                        if f.claimed().is_none() && !taken {
                            m |= 1 << i;
                        }
                    }
                    push_flags(out, card, m)
                }
                Some(_) => {}
            }
        }
        if tactics {
            if hand.contains(Card::tactic(Tactic::Scout)) {
                out.push(Action::Scout);
            }
            if hand.contains(Card::tactic(Tactic::Redeploy)) {
                let (mine, at) = self.movable(p);
                let unclaimed = self.unclaimed_flags();
                for card in mine.iter() {
                    let src = at[card.index()] as usize;
                    // Fog and Mud need no slot: any other unclaimed flag
                    // takes them (each exists once, so none is there yet).
                    let dest = if card.is_slot_card() { free } else { unclaimed };
                    let mut m = dest & !(1 << src);
                    while m != 0 {
                        let i = m.trailing_zeros() as usize;
                        m &= m - 1;
                        out.push(Action::Redeploy {
                            card,
                            to: FlagId::new(i),
                        });
                    }
                    out.push(Action::Redeploy { card, to: None });
                }
            }
            let theirs = || self.movable(opp(p)).0;
            if hand.contains(Card::tactic(Tactic::Deserter)) {
                for card in theirs().iter() {
                    out.push(Action::Deserter { card });
                }
            }
            if hand.contains(Card::tactic(Tactic::Traitor)) && free != 0 {
                for card in theirs().intersection(CardSet::ALL_TROOPS).iter() {
                    let mut m = free;
                    while m != 0 {
                        let i = m.trailing_zeros() as usize;
                        m &= m - 1;
                        if let Some(to) = FlagId::new(i) {
                            out.push(Action::Traitor { card, to });
                        }
                    }
                }
            }
        }
        if !self.troop_playable(p, free) {
            out.push(Action::Pass);
        }
    }

    fn receive(&mut self, card: Card) {
        let p = self.player();
        self.hands[p.index()].insert(card);
        self.table.draws_due = self.table.draws_due.saturating_sub(1);
        self.table.drawn += 1;
        self.enter_draw();
    }

    fn enter_draw(&mut self) {
        if self.table.draws_due > 0
            && (self.deck_len(Deck::Troop) > 0 || self.deck_len(Deck::Tactics) > 0)
        {
            self.table.phase = Phase::Draw;
        } else {
            self.finish_draws();
        }
    }

    fn finish_draws(&mut self) {
        let t = &mut self.table;
        t.draws_due = 0;
        t.returns_due = t.returns_due.min(t.drawn);
        if t.returns_due > 0 {
            t.phase = Phase::Return;
        } else {
            self.end_turn();
        }
    }

    fn end_turn(&mut self) {
        let t = &mut self.table;
        t.player = opp(t.player);
        t.phase = Phase::Play;
        t.draws_due = 0;
        t.returns_due = 0;
        t.drawn = 0;
    }

    fn after_play(&mut self, draws: u8, returns: u8) {
        let t = &mut self.table;
        t.draws_due = draws;
        t.returns_due = returns;
        t.drawn = 0;
        match self.rules.claim_timing {
            ClaimTiming::BeforeDraw => self.table.phase = Phase::Claim,
            ClaimTiming::StartOfTurn => self.enter_draw(),
        }
    }

    fn use_tactic(&mut self, p: PlayerId, card: Card, guile: bool) {
        let i = p.index();
        self.hands[i].remove(card);
        self.table.tactics_played[i] = self.table.tactics_played[i].saturating_add(1);
        if guile {
            self.table.discards[i].insert(card);
        }
    }

    /// The unclaimed flag where `card` is `p`'s (in a slot on his side, or
    /// as Fog or Mud he laid).
    fn flag_of(&self, p: PlayerId, card: Card) -> Option<usize> {
        let owner = |f: &Flag| match card.as_tactic() {
            Some(Tactic::Fog) => f.fog_owner(),
            Some(Tactic::Mud) => f.mud_owner(),
            _ => None,
        };
        self.table.flags.iter().position(|f| {
            f.claimed().is_none() && (f.side(p).contains(card) || owner(f) == Some(p))
        })
    }

    fn finish(&mut self, outcome: Outcome) {
        self.table.outcome = Some(outcome);
        self.table.phase = Phase::Over;
    }

    fn check_victory(&mut self, p: PlayerId) {
        if is_victory(self.table.claimed_mask(p)) {
            self.finish(Outcome::Win(p));
        }
    }

    /// The end rule: after two passes in a row nobody can change the table,
    /// so every unclaimed flag goes to the stronger complete formation (a
    /// complete one beats an incomplete one; ties go to who completed
    /// first; two incomplete sides leave it to nobody). Then a player with
    /// a breakthrough or five flags wins if the other has none; otherwise
    /// more flags win; equal is a draw.
    fn settle(&mut self) {
        let order = self.rules.formation_order;
        let unseen =
            (self.rules.wild_cards == WildCards::UnseenOnly).then(|| self.table.available_troops());
        for f in self.table.flags.iter_mut() {
            if f.claimed().is_some() {
                continue;
            }
            let strength = |p| match unseen {
                Some(u) => f.strength_unseen(p, order, u),
                None => f.strength(p, order),
            };
            let s = [strength(PlayerId::P0), strength(PlayerId::P1)];
            let winner = match s {
                [Some(a), Some(b)] if a == b => f.first_complete(),
                [Some(a), Some(b)] => Some(if a > b { PlayerId::P0 } else { PlayerId::P1 }),
                [Some(_), None] => Some(PlayerId::P0),
                [None, Some(_)] => Some(PlayerId::P1),
                [None, None] => None,
            };
            if let Some(w) = winner {
                f.set_claimed(w);
            }
        }
        let m = [
            self.table.claimed_mask(PlayerId::P0),
            self.table.claimed_mask(PlayerId::P1),
        ];
        let v = [is_victory(m[0]), is_victory(m[1])];
        let outcome = match (v, m[0].count_ones().cmp(&m[1].count_ones())) {
            ([true, false], _) => Outcome::Win(PlayerId::P0),
            ([false, true], _) => Outcome::Win(PlayerId::P1),
            (_, std::cmp::Ordering::Greater) => Outcome::Win(PlayerId::P0),
            (_, std::cmp::Ordering::Less) => Outcome::Win(PlayerId::P1),
            (_, std::cmp::Ordering::Equal) => Outcome::Draw,
        };
        self.table.settled = true;
        self.finish(outcome);
    }

    fn do_action(&mut self, action: Action) {
        let p = self.player();
        let i = p.index();
        let o = opp(p);
        let decision = !matches!(action, Action::Deal(_));
        match action {
            Action::Deal(card) => {
                let d = card.deck().index();
                self.pools[d].remove(card);
                if self.table.phase == Phase::Setup {
                    let first = self.rules.first_player;
                    let second = opp(first);
                    let to = if self.hands[first.index()].len() <= self.hands[second.index()].len()
                    {
                        first
                    } else {
                        second
                    };
                    self.hands[to.index()].insert(card);
                    if self.hands.iter().all(|h| h.len() >= HAND_SIZE) {
                        self.table.phase = Phase::Play;
                        self.table.player = first;
                    }
                } else {
                    self.receive(card);
                }
            }
            Action::Play { card, flag } => {
                self.hands[i].remove(card);
                match card.as_tactic() {
                    Some(t @ (Tactic::Fog | Tactic::Mud)) => {
                        self.lay_environment(p, t, flag.index())
                    }
                    _ => {
                        let _ = self.table.flags[flag.index()].place(p, card);
                    }
                }
                if let Some(t) = card.as_tactic() {
                    self.use_tactic(p, card, false);
                    if t.is_leader() {
                        self.table.leaders_played[i] = true;
                    }
                }
                self.table.passes = 0;
                self.after_play(1, 0);
            }
            Action::Scout => {
                self.use_tactic(p, Card::tactic(Tactic::Scout), true);
                self.table.scout_by = Some(p);
                self.table.passes = 0;
                self.after_play(3, 2);
            }
            Action::Redeploy { card, to } => {
                self.use_tactic(p, Card::tactic(Tactic::Redeploy), true);
                if let Some(src) = self.flag_of(p, card) {
                    match card.as_tactic() {
                        Some(t @ (Tactic::Fog | Tactic::Mud)) => {
                            self.take_environment(p, t, src);
                            match to {
                                Some(to) => self.lay_environment(p, t, to.index()),
                                None => self.table.discards[i].insert(card),
                            }
                        }
                        _ => {
                            let _ = self.table.flags[src].take(p, card);
                            match to {
                                Some(to) => {
                                    let _ = self.table.flags[to.index()].place(p, card);
                                }
                                None => self.table.discards[i].insert(card),
                            }
                        }
                    }
                }
                self.table.passes = 0;
                self.after_play(1, 0);
            }
            Action::Deserter { card } => {
                self.use_tactic(p, Card::tactic(Tactic::Deserter), true);
                if let Some(src) = self.flag_of(o, card) {
                    match card.as_tactic() {
                        Some(t @ (Tactic::Fog | Tactic::Mud)) => self.take_environment(p, t, src),
                        _ => {
                            let _ = self.table.flags[src].take(o, card);
                        }
                    }
                    self.table.discards[o.index()].insert(card);
                }
                self.table.passes = 0;
                self.after_play(1, 0);
            }
            Action::Traitor { card, to } => {
                self.use_tactic(p, Card::tactic(Tactic::Traitor), true);
                if let Some(src) = self.flag_of(o, card) {
                    let _ = self.table.flags[src].take(o, card);
                    let _ = self.table.flags[to.index()].place(p, card);
                }
                self.table.passes = 0;
                self.after_play(1, 0);
            }
            Action::Pass => {
                self.table.passes += 1;
                if self.table.passes >= 2 {
                    self.table.moves += 1;
                    self.settle();
                    return;
                }
                self.after_play(0, 0);
            }
            Action::Claim(flag) => {
                self.table.flags[flag.index()].set_claimed(p);
                self.check_victory(p);
            }
            Action::Draw(d) => {
                if let Some(card) = self.tops[d.index()].pop() {
                    if let Some(owner) = self.table.scout_by {
                        if owner != p {
                            self.revealed[owner.index()].insert(card);
                        }
                    }
                    self.receive(card);
                } else {
                    self.table.phase = Phase::Deal(d);
                }
            }
            Action::EndTurn => self.finish_draws(),
            Action::Return(card) => {
                self.hands[i].remove(card);
                self.tops[card.deck().index()].push(card);
                self.table.returns_due = self.table.returns_due.saturating_sub(1);
                if self.table.returns_due == 0 {
                    self.end_turn();
                }
            }
        }
        if decision {
            self.table.moves += 1;
        }
        // What a player knows of the other hand ends when the card leaves it.
        self.revealed[0] = self.revealed[0].intersection(self.hands[1]);
        self.revealed[1] = self.revealed[1].intersection(self.hands[0]);
    }

    fn illegal(&self, action: Action) -> BattleLineError {
        let reason = match (self.table.phase, action) {
            (Phase::Over, _) => "the game is over",
            (Phase::Setup | Phase::Deal(_), Action::Deal(_)) => "that card is not in the deck",
            (Phase::Setup | Phase::Deal(_), _) => "a chance event is due",
            (_, Action::Claim(_)) => "the claim cannot be proved now",
            (Phase::Play, Action::Pass) => "a troop card can be played",
            (Phase::Play, _) => "not a legal play",
            (Phase::Claim | Phase::Draw, Action::Draw(_)) => "nothing to draw from that deck",
            (Phase::Return, Action::Return(_)) => "the card is not in the hand",
            _ => "not possible in this phase of the turn",
        };
        BattleLineError::Illegal { action, reason }
    }
}

impl std::fmt::Display for BattleLine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let h = self.hands;
        crate::render::render(
            f,
            &self.table,
            None,
            [Some(h[0]), Some(h[1])],
            [h[0].len(), h[1].len()],
            [self.deck_len(Deck::Troop), self.deck_len(Deck::Tactics)],
        )
    }
}

impl Game for BattleLine {
    type Rules = Rules;
    type Action = Action;
    type Observation = Observation;
    type Error = BattleLineError;

    const NAME: &'static str = "battleline";

    fn new(rules: &Rules) -> Result<Self, BattleLineError> {
        if !rules.is_valid() {
            return Err(BattleLineError::InvalidRules);
        }
        Ok(BattleLine {
            rules: *rules,
            table: Table::new(rules.first_player),
            hands: [CardSet::EMPTY; 2],
            pools: [CardSet::ALL_TROOPS, CardSet::ALL_TACTICS],
            tops: [Top::default(); 2],
            revealed: [CardSet::EMPTY; 2],
        })
    }

    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn num_players(_: &Rules) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        match self.table.phase {
            Phase::Over => Turn::Terminal,
            Phase::Setup | Phase::Deal(_) => Turn::Chance,
            _ => Turn::Player(self.table.player),
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        let p = self.player();
        match self.table.phase {
            Phase::Over => {}
            Phase::Setup => out.extend(self.pools[Deck::Troop.index()].iter().map(Action::Deal)),
            Phase::Deal(d) => out.extend(self.pools[d.index()].iter().map(Action::Deal)),
            Phase::Play => {
                self.push_plays(p, out);
                if self.rules.claim_timing == ClaimTiming::StartOfTurn {
                    self.push_claims(p, out);
                }
            }
            Phase::Claim => {
                self.push_claims(p, out);
                self.push_draws(out);
            }
            Phase::Draw => self.push_draws(out),
            Phase::Return => out.extend(self.hands[p.index()].iter().map(Action::Return)),
        }
    }

    fn is_legal(&self, action: Action) -> bool {
        let p = self.player();
        match (self.table.phase, action) {
            (Phase::Setup, Action::Deal(c)) => self.pools[Deck::Troop.index()].contains(c),
            (Phase::Deal(d), Action::Deal(c)) => self.pools[d.index()].contains(c),
            (Phase::Return, Action::Return(c)) => self.hands[p.index()].contains(c),
            (Phase::Claim, Action::Claim(f)) => self.can_claim(p, f),
            (Phase::Play, Action::Claim(f)) => {
                self.rules.claim_timing == ClaimTiming::StartOfTurn && self.can_claim(p, f)
            }
            (Phase::Play | Phase::Claim | Phase::Draw, _) => {
                let mut v = Vec::new();
                self.legal_actions(&mut v);
                v.contains(&action)
            }
            _ => false,
        }
    }

    fn apply(&mut self, action: Action) -> Result<(), BattleLineError> {
        if !self.is_legal(action) {
            return Err(self.illegal(action));
        }
        self.do_action(action);
        Ok(())
    }

    fn apply_unchecked(&mut self, action: Action) {
        self.do_action(action);
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        let pool = match self.table.phase {
            Phase::Setup => self.pools[Deck::Troop.index()],
            Phase::Deal(d) => self.pools[d.index()],
            _ => return,
        };
        let p = 1.0 / pool.len() as f64;
        out.extend(pool.iter().map(|c| (Action::Deal(c), p)));
    }

    fn sample_chance<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        let pool = match self.table.phase {
            Phase::Setup => self.pools[Deck::Troop.index()],
            Phase::Deal(d) => self.pools[d.index()],
            _ => return None,
        };
        if pool.is_empty() {
            return None;
        }
        // Picks the k-th set bit without listing the pool.
        let mut k = rng.random_range(0..pool.len());
        let mut bits = pool.bits();
        while k > 0 {
            bits &= bits - 1;
            k -= 1;
        }
        Card::from_index(bits.trailing_zeros() as usize).map(Action::Deal)
    }

    fn observation(&self, player: PlayerId) -> Observation {
        Observation::of(self, player)
    }

    fn determinize<R: Rng + ?Sized>(
        observation: &Observation,
        rng: &mut R,
    ) -> Result<Self, BattleLineError> {
        observation.determinize(rng)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.table.outcome
    }

    fn move_count(&self) -> u32 {
        self.table.moves
    }

    fn max_game_length(_: &Rules) -> u32 {
        MAX_GAME_LENGTH
    }

    fn action_space(_: &Rules) -> usize {
        ACTION_SPACE
    }

    fn action_id(_: &Rules, action: Action) -> usize {
        action.id()
    }

    fn action_from_id(_: &Rules, id: usize) -> Option<Action> {
        Action::from_id(id)
    }
}
