//! Move listing and the legality check of one action: the same rules,
//! written once as a list and once as a decision.

use game_traits::PlayerId;

use crate::action::Action;
use crate::card::{Card, CardSet, Deck, Tactic};
use crate::flag::{FlagId, FLAGS};
use crate::flag_set::FlagSet;
use crate::rules::{ClaimTiming, EnvironmentTactics, LeaderLimit};
use crate::state::{BattleLine, Phase};

/// The cards Redeploy or Deserter can take from one player, with the flag
/// of each.
pub(crate) struct Movable {
    pub(crate) cards: CardSet,
    /// Per flag, the player's slot cards there as bits (0 at a claimed flag).
    sides: [u64; FLAGS],
    /// Where the player's movable Fog and Mud lie.
    env: [u8; 2],
}

impl Movable {
    /// The flag of `card`, one of [`Movable::cards`].
    pub(crate) fn flag_of(&self, card: Card) -> usize {
        match card.as_tactic() {
            Some(Tactic::Fog) => self.env[0] as usize,
            Some(Tactic::Mud) => self.env[1] as usize,
            _ => {
                let bit = if card.index() < 64 {
                    1u64 << card.index()
                } else {
                    0
                };
                self.sides.iter().position(|&m| m & bit != 0).unwrap_or(0)
            }
        }
    }
}

impl BattleLine {
    /// Clears `out` and lists the legal actions, sorted by id.
    pub(crate) fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let p = self.table.player;
        match self.table.phase {
            Phase::Over => {}
            Phase::Setup | Phase::Deal(_) => {
                if let Some(pool) = self.chance_pool() {
                    out.extend(pool.iter().map(Action::Deal));
                }
            }
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
            Phase::Return => out.extend(self.hands[p].iter().map(Action::Return)),
        }
    }

    /// Why `action` is not legal now, or `None` when it is; decided
    /// without listing.
    pub(crate) fn illegal_reason(&self, action: Action) -> Option<&'static str> {
        let p = self.table.player;
        let fails = |ok: bool, reason| (!ok).then_some(reason);
        match (self.table.phase, action) {
            (Phase::Over, _) => Some("the game is over"),
            (Phase::Setup | Phase::Deal(_), Action::Deal(c)) => fails(
                self.chance_pool().is_some_and(|pool| pool.contains(c)),
                "that card is not in the deck",
            ),
            (Phase::Setup | Phase::Deal(_), _) => Some("a chance event is due"),
            (_, Action::Deal(_)) => Some("no chance event is due"),
            (Phase::Return, Action::Return(c)) => {
                fails(self.hands[p].contains(c), "the card is not in the hand")
            }
            (Phase::Return, _) => Some("Scout's returns are due"),
            (Phase::Claim, Action::Claim(f)) => self.claim_reason(p, f),
            (Phase::Play, Action::Claim(f)) => match self.rules.claim_timing {
                ClaimTiming::StartOfTurn => self.claim_reason(p, f),
                ClaimTiming::BeforeDraw => Some("claims come after playing"),
            },
            (Phase::Claim | Phase::Draw, Action::Draw(d)) => {
                if self.table.draws_due == 0 {
                    Some("no draw is due")
                } else {
                    fails(self.deck_len(d) > 0, "nothing to draw from that deck")
                }
            }
            (Phase::Claim | Phase::Draw, Action::EndTurn) => {
                fails(!self.can_draw(), "a card must be drawn")
            }
            (Phase::Play, _) => self.play_reason(p, action),
            _ => Some("not possible in this phase of the turn"),
        }
    }

    /// The deck of the chance event now due.
    pub(crate) fn chance_pool(&self) -> Option<CardSet> {
        match self.table.phase {
            Phase::Setup => Some(self.pools[Deck::Troop.index()]),
            Phase::Deal(d) => Some(self.pools[d.index()]),
            _ => None,
        }
    }

    fn can_draw(&self) -> bool {
        self.table.draws_due > 0 && Deck::ALL.iter().any(|&d| self.deck_len(d) > 0)
    }

    fn claim_reason(&self, p: PlayerId, flag: FlagId) -> Option<&'static str> {
        let f = &self.table.flags[flag.index()];
        if f.claimed().is_some() {
            Some("the flag is already claimed")
        } else if !f.is_complete(p) {
            Some("the formation is not complete")
        } else if !self.claim_proved(p, flag.index(), self.available()) {
            Some("the claim cannot be proved now")
        } else {
            None
        }
    }

    fn play_reason(&self, p: PlayerId, action: Action) -> Option<&'static str> {
        let hand = self.hands[p];
        let free = self.free_flags(p);
        let tactic_card = match action {
            Action::Play { card, .. } => card.as_tactic().map(|_| card),
            Action::Scout => Some(Card::tactic(Tactic::Scout)),
            Action::Redeploy { .. } => Some(Card::tactic(Tactic::Redeploy)),
            Action::Deserter { .. } => Some(Card::tactic(Tactic::Deserter)),
            Action::Traitor { .. } => Some(Card::tactic(Tactic::Traitor)),
            Action::Pass => {
                return (self.troop_playable(p, free)).then_some("a troop card can be played")
            }
            _ => return Some("not possible in this phase of the turn"),
        };
        if let Some(card) = tactic_card {
            if !hand.contains(card) {
                return Some("the card is not in the hand");
            }
            if !self.tactics_allowed(p) {
                return Some("one tactics card more than the opponent already");
            }
        }
        match action {
            Action::Play { card, flag } => {
                if !hand.contains(card) {
                    return Some("the card is not in the hand");
                }
                let slot = || {
                    free.contains(flag)
                        .then_some(())
                        .ok_or("no free slot there")
                };
                let r = match card.as_tactic() {
                    None | Some(Tactic::CompanionCavalry | Tactic::ShieldBearers) => slot(),
                    Some(t) if t.is_leader() => {
                        if self.leader_allowed(p) {
                            slot()
                        } else {
                            Err("a Leader was played already")
                        }
                    }
                    Some(t @ (Tactic::Fog | Tactic::Mud)) => {
                        let f = &self.table.flags[flag.index()];
                        let taken = if t == Tactic::Fog {
                            f.env().fog
                        } else {
                            f.env().mud
                        };
                        if f.claimed().is_some() {
                            Err("the flag is claimed")
                        } else if taken {
                            Err("the card is there already")
                        } else {
                            Ok(())
                        }
                    }
                    Some(_) => Err("that tactic is not played at a flag"),
                };
                r.err()
            }
            Action::Scout | Action::Pass => None,
            Action::Redeploy { card, to } => {
                let mine = self.movable(p);
                if !mine.cards.contains(card) {
                    return Some("not your card at an unclaimed flag");
                }
                // Discarding (`to: None`) is always possible.
                to.and_then(|to| {
                    let dest = if card.is_slot_card() {
                        free
                    } else {
                        self.unclaimed_flags()
                    };
                    let src = mine.flag_of(card);
                    (src == to.index() || !dest.contains(to)).then_some("cannot go to that flag")
                })
            }
            Action::Deserter { card } => (!self.movable(p.other()).cards.contains(card))
                .then_some("not the opponent's card at an unclaimed flag"),
            Action::Traitor { card, to } => {
                if !card.is_troop() || !self.movable(p.other()).cards.contains(card) {
                    Some("not the opponent's troop card at an unclaimed flag")
                } else {
                    (!free.contains(to)).then_some("no free slot there")
                }
            }
            _ => Some("not possible in this phase of the turn"),
        }
    }

    pub(crate) fn tactics_allowed(&self, p: PlayerId) -> bool {
        let tp = self.table.tactics_played;
        tp[p] <= tp[p.other()]
    }

    pub(crate) fn leader_allowed(&self, p: PlayerId) -> bool {
        match self.rules.leader_limit {
            LeaderLimit::OncePerGame => !self.table.leaders_played[p],
            LeaderLimit::OneOnTable => !self.table.flags.iter().any(|f| {
                f.side(p)
                    .iter()
                    .any(|c| c.as_tactic().is_some_and(Tactic::is_leader))
            }),
        }
    }

    /// Flags with a free slot for `p`.
    #[inline]
    pub(crate) fn free_flags(&self, p: PlayerId) -> FlagSet {
        FlagSet::from_bits(self.bits.free[p.index()])
    }

    /// The cards Redeploy and Deserter can take from `p` (his slot cards at
    /// unclaimed flags, and under [`EnvironmentTactics::Movable`] the Fog
    /// and Mud he laid there), and the flag of each card.
    pub(crate) fn movable(&self, p: PlayerId) -> Movable {
        let mut m = Movable {
            cards: CardSet::EMPTY,
            sides: [0; FLAGS],
            env: [0; 2],
        };
        let env = self.rules.environment_tactics == EnvironmentTactics::Movable;
        let mut bits = 0u64;
        for (i, f) in self.table.flags.iter().enumerate() {
            if f.claimed().is_none() {
                m.sides[i] = f.side(p).bits();
                bits |= m.sides[i];
                if env {
                    for (k, (owner, t)) in
                        [(f.fog_owner(), Tactic::Fog), (f.mud_owner(), Tactic::Mud)]
                            .into_iter()
                            .enumerate()
                    {
                        if owner == Some(p) {
                            m.cards.insert(Card::tactic(t));
                            m.env[k] = i as u8;
                        }
                    }
                }
            }
        }
        m.cards = m.cards.union(CardSet::from_low_bits(bits));
        m
    }

    /// Unclaimed flags.
    #[inline]
    pub(crate) fn unclaimed_flags(&self) -> FlagSet {
        FlagSet::from_bits(self.bits.unclaimed)
    }

    pub(crate) fn troop_playable(&self, p: PlayerId, free: FlagSet) -> bool {
        !self.hands[p].intersection(CardSet::ALL_TROOPS).is_empty() && !free.is_empty()
    }

    fn push_claims(&self, p: PlayerId, out: &mut Vec<Action>) {
        let m = FlagSet::from_bits(self.claimable(p));
        out.extend(m.iter().map(Action::Claim));
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
        let hand = self.hands[p];
        let free = self.free_flags(p);
        let tactics = self.tactics_allowed(p);
        let push_flags = |out: &mut Vec<Action>, card: Card, flags: FlagSet| {
            out.extend(flags.iter().map(|flag| Action::Play { card, flag }));
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
                    push_flags(out, card, FlagSet::from_bits(m))
                }
                Some(_) => {}
            }
        }
        if tactics {
            if hand.contains(Card::tactic(Tactic::Scout)) {
                out.push(Action::Scout);
            }
            if hand.contains(Card::tactic(Tactic::Redeploy)) {
                let mine = self.movable(p);
                let unclaimed = self.unclaimed_flags();
                for card in mine.cards.iter() {
                    let src = mine.flag_of(card);
                    // Fog and Mud need no slot: any other unclaimed flag
                    // takes them (each exists once, so none is there yet).
                    let dest = if card.is_slot_card() { free } else { unclaimed };
                    let m = FlagSet::from_bits(dest.bits() & !(1 << src));
                    out.extend(m.iter().map(|to| Action::Redeploy { card, to: Some(to) }));
                    out.push(Action::Redeploy { card, to: None });
                }
            }
            let theirs = || self.movable(p.other()).cards;
            if hand.contains(Card::tactic(Tactic::Deserter)) {
                for card in theirs().iter() {
                    out.push(Action::Deserter { card });
                }
            }
            if hand.contains(Card::tactic(Tactic::Traitor)) && !free.is_empty() {
                for card in theirs().intersection(CardSet::ALL_TROOPS).iter() {
                    out.extend(free.iter().map(|to| Action::Traitor { card, to }));
                }
            }
        }
        if !self.troop_playable(p, free) {
            out.push(Action::Pass);
        }
    }
}
