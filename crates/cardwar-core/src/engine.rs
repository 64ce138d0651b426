//! The rules in motion: setup, the legal actions and chance events of each
//! phase, and the dispatch of an action to the round, battle and prayer
//! rules. Every change keeps the public counts, the hidden card sets and the
//! opponent's knowledge in step.

use game_traits::PlayerId;

use crate::action::Action;
use crate::card::{CardSet, Soldier};
use crate::dice::{self, guard_die_weight, two_dice_weight};
use crate::listing::{DRAWS, PLACES};
use crate::prayer::Prayer;
use crate::rules::Rules;
use crate::state::{Battle, CardWar, LayKind, Open, Phase, Public, SideHidden, SidePublic};

/// A card drawn uniformly from `set`, which holds `count` cards. The count
/// is the public one, equal to the set's size in every state (validation
/// checks it): reading it, rather than counting the set, takes the count off
/// the path from the set to the random index. Out of line so that the dice,
/// the commoner chance events, are sampled by a function with fewer
/// registers to save.
#[inline(never)]
fn uniform_card<R: rand::Rng + ?Sized>(set: CardSet, count: u8, rng: &mut R) -> Option<Action> {
    if count == 0 {
        None
    } else {
        set.nth(dice::below(rng, count.into()) as usize)
            .map(Action::Draw)
    }
}

impl CardWar {
    pub(crate) fn start(rules: Rules) -> Self {
        let mut game = CardWar {
            rules,
            public: Public {
                round: 0,
                moves: 0,
                phase: Phase::Initiative { first_die: 0 },
                first: PlayerId::P0,
                battle_no: 1,
                swapped: false,
                last_attacker: None,
                sides: [SidePublic::new(24), SidePublic::new(24)],
                battle: Battle::new(PlayerId::P0),
                outcome: None,
            },
            hidden: [SideHidden::new(), SideHidden::new()],
        };
        if rules.aside > 0 {
            game.public.phase = Phase::Aside {
                colour: PlayerId::P0,
                left: rules.aside,
            };
        }
        game
    }

    /// Whether `action` is legal now.
    pub(crate) fn legal(&self, action: Action) -> bool {
        match (self.public.phase, action) {
            (Phase::Aside { colour, .. }, Action::Draw(c)) => self.hid(colour).hand.contains(c),
            (Phase::Initiative { first_die }, Action::Die(d @ 1..=6)) if d != first_die => {
                (1..=6).contains(&d) && d != first_die
            }
            (Phase::DrawRoll { .. } | Phase::PrayerRoll { .. }, Action::Dice(s)) => {
                (2..=12).contains(&s)
            }
            (Phase::Draw { player, .. } | Phase::Reinforce { player, .. }, Action::Draw(c)) => {
                self.hid(player).pile.contains(c)
            }
            (Phase::Lay { player, .. }, Action::Place(c)) => self.hid(player).hand.contains(c),
            (
                Phase::Lay {
                    kind: LayKind::FreeAttack,
                    ..
                },
                Action::EndLine,
            ) => true,
            (Phase::Pray { .. }, Action::Pray | Action::Decline) => true,
            (
                Phase::ParatrooperRoll { .. } | Phase::AttackDie | Phase::DefenceDie,
                Action::Die(d),
            ) => (1..=6).contains(&d),
            _ => false,
        }
    }

    /// Lists the legal actions in id order.
    pub(crate) fn list_legal(&self, out: &mut Vec<Action>) {
        out.clear();
        // Playouts list the legal actions of decisions only, placements
        // above all: the chance nodes' lists are out of line, so that this
        // function saves few registers.
        match self.public.phase {
            Phase::Lay { player, kind, .. } => {
                PLACES.push(out, self.hid(player).hand);
                if kind == LayKind::FreeAttack {
                    out.push(Action::EndLine);
                }
            }
            Phase::Pray { .. } => out.extend([Action::Pray, Action::Decline]),
            Phase::Over => {}
            _ => self.list_chance(out),
        }
    }

    /// Lists the outcomes of a chance node in id order.
    #[inline(never)]
    fn list_chance(&self, out: &mut Vec<Action>) {
        match self.public.phase {
            Phase::Aside { colour, .. } => DRAWS.push(out, self.hid(colour).hand),
            Phase::Initiative { first_die } => {
                out.extend((1..=6).filter(|&d| d != first_die).map(Action::Die))
            }
            Phase::DrawRoll { .. } | Phase::PrayerRoll { .. } => {
                out.extend((2..=12).map(Action::Dice))
            }
            Phase::Draw { player, .. } | Phase::Reinforce { player, .. } => {
                DRAWS.push(out, self.hid(player).pile)
            }
            Phase::ParatrooperRoll { .. } | Phase::AttackDie | Phase::DefenceDie => {
                out.extend((1..=6).map(Action::Die))
            }
            Phase::Lay { .. } | Phase::Pray { .. } | Phase::Over => {}
        }
    }

    /// The chance outcomes now due, with their weights and the weights'
    /// total; empty at a decision.
    pub(crate) fn chance_weights(&self, mut emit: impl FnMut(Action, u32)) -> u32 {
        match self.public.phase {
            Phase::Aside { colour, .. } => {
                let hand = self.hid(colour).hand;
                hand.iter().for_each(|c| emit(Action::Draw(c), 1));
                hand.len() as u32
            }
            Phase::Initiative { first_die } => {
                let mut total = 0;
                for d in (1..=6).filter(|&d| d != first_die) {
                    emit(Action::Die(d), 1);
                    total += 1;
                }
                total
            }
            Phase::DrawRoll { .. } | Phase::PrayerRoll { .. } => {
                (2..=12).for_each(|s| emit(Action::Dice(s), two_dice_weight(s)));
                36
            }
            Phase::Draw { player, .. } | Phase::Reinforce { player, .. } => {
                let pile = self.hid(player).pile;
                pile.iter().for_each(|c| emit(Action::Draw(c), 1));
                pile.len() as u32
            }
            Phase::ParatrooperRoll { .. } | Phase::AttackDie => {
                (1..=6).for_each(|d| emit(Action::Die(d), 1));
                6
            }
            Phase::DefenceDie => {
                let d = self.public.battle.attacker.opponent();
                if matches!(self.public.battle.open[d.index()], Open::Guard(_)) {
                    (1..=6).for_each(|k| emit(Action::Die(k), guard_die_weight(k)));
                    36
                } else {
                    (1..=6).for_each(|k| emit(Action::Die(k), 1));
                    6
                }
            }
            Phase::Lay { .. } | Phase::Pray { .. } | Phase::Over => 0,
        }
    }

    /// Draws a chance outcome without allocating.
    pub(crate) fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Action> {
        match self.public.phase {
            Phase::Aside { colour, .. } => {
                uniform_card(self.hid(colour).hand, self.side(colour).hand, rng)
            }
            Phase::Draw { player, .. } | Phase::Reinforce { player, .. } => {
                uniform_card(self.hid(player).pile, self.side(player).pile, rng)
            }
            Phase::Initiative { first_die } => {
                let d = dice::below(rng, if first_die == 0 { 6 } else { 5 }) as u8 + 1;
                Some(Action::Die(if first_die != 0 && d >= first_die {
                    d + 1
                } else {
                    d
                }))
            }
            Phase::DrawRoll { .. } | Phase::PrayerRoll { .. } => {
                Some(Action::Dice(dice::two_dice_sum(rng)))
            }
            Phase::ParatrooperRoll { .. } | Phase::AttackDie => Some(Action::Die(dice::die(rng))),
            Phase::DefenceDie => {
                let d = self.public.battle.attacker.opponent();
                Some(Action::Die(
                    if matches!(self.public.battle.open[d.index()], Open::Guard(_)) {
                        dice::higher_of_two_dice(rng)
                    } else {
                        dice::die(rng)
                    },
                ))
            }
            Phase::Lay { .. } | Phase::Pray { .. } | Phase::Over => None,
        }
    }

    /// Applies an action; one that does not fit the phase, or names a card
    /// or die face that is not available, is ignored.
    pub(crate) fn step(&mut self, action: Action) {
        // Dispatching on the phase alone, then on the action, takes fewer
        // instructions than matching the pair: this runs for every action.
        // Each phase's rule is its own function, so that `step` itself is a
        // jump table that saves no registers, and each rule saves only the
        // registers it uses.
        match self.public.phase {
            Phase::Aside { colour, left } => self.put_aside(colour, left, action),
            Phase::Initiative { first_die } => self.initiative(first_die, action),
            Phase::DrawRoll { player } => self.draw_roll(player, action),
            Phase::Draw { player, left } => self.draw_card(player, left, action),
            Phase::Lay { player, kind, left } => self.lay(player, kind, left, action),
            Phase::Pray { player } => self.answer_prayer_question(player, action),
            Phase::PrayerRoll { player } => {
                if let Some(prayer) = match action {
                    Action::Dice(s) => Prayer::from_sum(s),
                    _ => None,
                } {
                    self.pray(player, prayer);
                }
            }
            Phase::Reinforce { player, left } => self.reinforce(player, left, action),
            Phase::ParatrooperRoll { player } => self.paratroopers(player, action),
            Phase::AttackDie => {
                if let Action::Die(d @ 1..=6) = action {
                    self.public.battle.attack_die = d;
                    self.public.phase = Phase::DefenceDie;
                }
            }
            Phase::DefenceDie => {
                if let Action::Die(d @ 1..=6) = action {
                    self.fight(d);
                }
            }
            Phase::Over => {}
        }
    }

    /// Setup: `colour` puts a card of his hand aside into his pile.
    #[inline(never)]
    fn put_aside(&mut self, colour: PlayerId, left: u8, action: Action) {
        match action {
            Action::Draw(c) if self.hid(colour).hand.contains(c) => {
                self.hand_to_pile(colour, c);
                self.public.phase = if left > 1 {
                    Phase::Aside {
                        colour,
                        left: left - 1,
                    }
                } else if colour == PlayerId::P0 {
                    Phase::Aside {
                        colour: PlayerId::P1,
                        left: self.rules.aside,
                    }
                } else {
                    Phase::Initiative { first_die: 0 }
                };
            }
            _ => {}
        }
    }

    /// The initiative dice.
    #[inline(never)]
    fn initiative(&mut self, first_die: u8, action: Action) {
        match action {
            Action::Die(d @ 1..=6) if first_die == 0 => {
                self.public.phase = Phase::Initiative { first_die: d };
            }
            Action::Die(d @ 1..=6) if d != first_die => {
                self.public.first = if first_die > d {
                    PlayerId::P0
                } else {
                    PlayerId::P1
                };
                self.begin_round();
            }
            _ => {}
        }
    }

    /// `player`'s 2d6 of how many cards he draws.
    #[inline(never)]
    fn draw_roll(&mut self, player: PlayerId, action: Action) {
        if let Action::Dice(s @ 2..=12) = action {
            let pile = self.side(player).pile;
            let n = s.min(pile.saturating_sub(self.rules.keep_in_pile));
            if n > 0 {
                self.public.phase = Phase::Draw { player, left: n };
            } else {
                self.after_draw(player);
            }
        }
    }

    /// `player` draws a card from his pile into his hand.
    #[inline(never)]
    fn draw_card(&mut self, player: PlayerId, left: u8, action: Action) {
        match action {
            Action::Draw(c) if self.hid(player).pile.contains(c) => {
                let (h, p) = (
                    &mut self.hidden[player.index()],
                    &mut self.public.sides[player.index()],
                );
                h.pile.remove(c);
                h.hand.insert(c);
                p.pile -= 1;
                p.hand += 1;
                p.tighten_unseen();
                if left > 1 && p.pile > 0 {
                    self.public.phase = Phase::Draw {
                        player,
                        left: left - 1,
                    };
                } else {
                    self.after_draw(player);
                }
            }
            _ => {}
        }
    }

    /// `player` lays the next card of a line, or ends a free attack line.
    #[inline(never)]
    fn lay(&mut self, player: PlayerId, kind: LayKind, left: u8, action: Action) {
        match action {
            Action::Place(c) if self.hid(player).hand.contains(c) => {
                self.public.moves += 1;
                let s = player.index();
                let len = self.public.sides[s].line.len();
                if self.public.sides[s].line.push() {
                    self.hidden[s].hand.remove(c);
                    self.hidden[s].line[len] = c;
                    self.public.sides[s].hand -= 1;
                }
                if left > 1 && self.public.sides[s].hand > 0 {
                    self.public.phase = Phase::Lay {
                        player,
                        kind,
                        left: left - 1,
                    };
                } else {
                    self.lay_done(player, kind);
                }
            }
            Action::EndLine if kind == LayKind::FreeAttack => {
                self.public.moves += 1;
                self.lay_done(player, kind);
            }
            _ => {}
        }
    }

    /// `player` prays before this fight, or not.
    #[inline(never)]
    fn answer_prayer_question(&mut self, player: PlayerId, action: Action) {
        match action {
            Action::Pray => {
                self.public.moves += 1;
                self.public.sides[player.index()].prayed = true;
                if self.rules.one_prayer_per_fight {
                    self.public.battle.asked = [true; 2];
                } else {
                    self.public.battle.asked[player.index()] = true;
                }
                self.public.phase = Phase::PrayerRoll { player };
            }
            Action::Decline => {
                self.public.moves += 1;
                self.public.battle.asked[player.index()] = true;
                self.advance_battle();
            }
            _ => {}
        }
    }

    /// A prayer brings the next card of `player`'s pile face down into his
    /// line.
    #[inline(never)]
    fn reinforce(&mut self, player: PlayerId, left: u8, action: Action) {
        match action {
            Action::Draw(c) if self.hid(player).pile.contains(c) => {
                let s = player.index();
                let len = self.public.sides[s].line.len();
                if self.public.sides[s].line.push() {
                    self.hidden[s].pile.remove(c);
                    self.hidden[s].line[len] = c;
                    self.public.sides[s].pile -= 1;
                    // Still a card of the pile's, as far as the
                    // opponent knows: `unseen_in_pile` counts it.
                    if let Some(slot) = self.public.sides[s].line.slot_mut(len) {
                        slot.from_pile = true;
                    }
                }
                if left > 1 && self.public.sides[s].pile > 0 {
                    self.public.phase = Phase::Reinforce {
                        player,
                        left: left - 1,
                    };
                } else {
                    self.advance_battle();
                }
            }
            _ => {}
        }
    }

    /// The die of how many paratroopers `player`'s prayer brings.
    #[inline(never)]
    fn paratroopers(&mut self, player: PlayerId, action: Action) {
        if let Action::Die(d @ 1..=6) = action {
            let n = d.min(self.side(player).pile);
            if n > 0 {
                self.public.phase = Phase::Reinforce { player, left: n };
            } else {
                self.advance_battle();
            }
        }
    }

    fn hid(&self, p: PlayerId) -> &SideHidden {
        &self.hidden[p.index() & 1]
    }

    pub(crate) fn hand_to_pile(&mut self, p: PlayerId, c: Soldier) {
        let s = p.index();
        self.hidden[s].hand.remove(c);
        self.hidden[s].pile.insert(c);
        self.public.sides[s].hand -= 1;
        self.public.sides[s].pile += 1;
        self.public.sides[s].unseen_in_pile += 1;
    }
}
