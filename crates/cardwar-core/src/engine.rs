//! The rules in motion: setup, and the dispatch of an action to the rule
//! of its phase (the round, battle and prayer rules live in their own
//! modules). Every change keeps the public counts, the hidden card sets and the
//! opponent's knowledge in step.

use game_traits::{PerPlayer, PlayerId};

use crate::action::Action;
use crate::card::Soldier;
use crate::line::SlotView;
use crate::prayer::Prayer;
use crate::rules::Rules;
use crate::state::{Battle, CardWar, LayKind, Phase, Public, SideHidden, SidePublic};

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
                initiative: PerPlayer::default(),
                sides: PerPlayer::new(SidePublic::new(24), SidePublic::new(24)),
                battle: Battle::new(PlayerId::P0),
                outcome: None,
            },
            hidden: PerPlayer::new(SideHidden::new(), SideHidden::new()),
        };
        if rules.aside > 0 {
            game.public.phase = Phase::Aside {
                colour: PlayerId::P0,
                left: rules.aside,
            };
        }
        game
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
            Action::Draw(c) if self.hidden(colour).hand.contains(c) => {
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
                self.public.initiative[PlayerId::P0] = d;
                self.public.phase = Phase::Initiative { first_die: d };
            }
            Action::Die(d @ 1..=6) if d != first_die => {
                self.public.initiative[PlayerId::P1] = d;
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
            self.public.sides[player].draw_roll = s;
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
            Action::Draw(c) if self.hidden(player).pile.contains(c) => {
                let (h, p) = (&mut self.hidden[player], &mut self.public.sides[player]);
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
            Action::Place(c) if self.hidden(player).hand.contains(c) => {
                self.count_decision();
                // All or nothing (ruling 29): a reserve can only be kept
                // before the first card, so the rest of the hand follows.
                let kind = match kind {
                    LayKind::FreeAttack if self.rules.reserve_all_or_nothing => LayKind::Attack,
                    k => k,
                };
                let s = player;
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
                self.count_decision();
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
                self.count_decision();
                self.public.sides[player].prayed = true;
                if self.rules.one_prayer_per_fight {
                    self.public.battle.asked = PerPlayer::new(true, true);
                } else {
                    self.public.battle.asked[player] = true;
                }
                self.public.phase = Phase::PrayerRoll { player };
            }
            Action::Decline => {
                self.count_decision();
                self.public.battle.asked[player] = true;
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
            Action::Draw(c) if self.hidden(player).pile.contains(c) => {
                let s = player;
                let len = self.public.sides[s].line.len();
                // Still a card of the pile's, as far as the opponent knows:
                // `unseen_in_pile` counts it.
                let slot = SlotView {
                    from_pile: true,
                    ..SlotView::default()
                };
                if self.public.sides[s].line.push_slot(slot) {
                    self.hidden[s].pile.remove(c);
                    self.hidden[s].line[len] = c;
                    self.public.sides[s].pile -= 1;
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
            self.public.sides[player].paratroopers = d;
            let n = d.min(self.side(player).pile);
            if n > 0 {
                self.public.phase = Phase::Reinforce { player, left: n };
            } else {
                self.advance_battle();
            }
        }
    }

    /// One more player decision. The count stops at the most actions any
    /// game has (which no game reaches), so that the bound validation
    /// holds it to stays true for every state play reaches, even from a
    /// loaded state whose count was already at it.
    #[inline]
    fn count_decision(&mut self) {
        self.public.moves = (self.public.moves + 1).min(self.rules.max_actions());
    }

    pub(crate) fn hand_to_pile(&mut self, p: PlayerId, c: Soldier) {
        let s = p;
        self.hidden[s].hand.remove(c);
        self.hidden[s].pile.insert(c);
        self.public.sides[s].hand -= 1;
        self.public.sides[s].pile += 1;
        self.public.sides[s].unseen_in_pile += 1;
    }
}
