//! Text renderings of the board for terminals and logs.

use std::fmt::{self, Write};

use game_traits::PlayerId;

use crate::card::{CardSet, Deck};
use crate::flag::Side;
use crate::state::{BattleLine, Phase, Table};

/// What the codes of the renderings mean (of a state, `Display` of
/// [`BattleLine`], and of a view, `Display` of
/// [`Observation`](crate::Observation)), for screens that show them.
pub const LEGEND: &str = "\
Troop cards: colour letter and value, R O Y G B P (Red, Orange, Yellow, Green, Blue, Purple) 1..10, e.g. R7, P10.
Tactics: AL DA Leaders (Alexander, Darius), C8 Companion Cavalry, SB Shield Bearers, FOG, MUD, SCT Scout, RDP Redeploy, DES Deserter, TRT Traitor.
Rows F1..F9: the flags; P0's side left of |, P1's right, cards in the order played; . a free slot (four under Mud).
fog / mud: Fog or Mud lies at that flag (\"by P0\": who laid it, when the rules let it move).
won by P0: the flag is claimed; (P1 complete first): who completed first, the other loses a tie.
Header: move counter, whose step (play, claim or draw, draw, return cards; dealing; game over, \"settled by the end rule\" after two passes), cards left in each deck, tactics played by each.
Hands: a hidden hand shows its size only; discards are the played guile tactics and the cards taken off a side.
In a view: \"returned on top of the decks by you\" are your Scout returns still there; \"known in the opponent's hand\" the ones he drew.";

fn side_text(side: &Side, slots: usize) -> String {
    let mut s = String::new();
    for i in 0..slots {
        if i > 0 {
            s.push(' ');
        }
        match side.iter().nth(i) {
            Some(c) => {
                let _ = write!(s, "{c:>3}");
            }
            None => s.push_str("  ."),
        }
    }
    s
}

/// Renders the table; `hands[p]` is `None` for a hand the viewer cannot see.
pub(crate) fn render(
    f: &mut fmt::Formatter<'_>,
    table: &Table,
    viewer: Option<PlayerId>,
    hands: [Option<CardSet>; 2],
    hand_lens: [usize; 2],
    decks: [usize; 2],
) -> fmt::Result {
    let who = match table.phase() {
        Phase::Over => match table.outcome() {
            Some(o) => format!(
                "game over: {o}{}",
                if table.settled() {
                    " (settled by the end rule)"
                } else {
                    ""
                }
            ),
            None => "game over".to_owned(),
        },
        Phase::Setup => "dealing".to_owned(),
        Phase::Deal(d) => format!("{} draws from the {d}", table.player()),
        phase => format!(
            "{} to {}",
            table.player(),
            match phase {
                Phase::Play => "play",
                Phase::Claim => "claim or draw",
                Phase::Draw => "draw",
                _ => "return cards",
            }
        ),
    };
    let view = match viewer {
        Some(p) => format!(" (view of {p})"),
        None => String::new(),
    };
    writeln!(
        f,
        "Battle Line{view}, move {}: {who} | troop deck {}, tactics deck {} | tactics played P0 {}, P1 {}",
        table.moves, decks[0], decks[1], table.tactics_played[PlayerId::P0], table.tactics_played[PlayerId::P1]
    )?;
    let hand_line = |f: &mut fmt::Formatter<'_>, p: usize| -> fmt::Result {
        match hands[p] {
            Some(h) if h.is_empty() => writeln!(f, "P{p} hand: empty"),
            Some(h) => writeln!(f, "P{p} hand ({}): {h}", h.len()),
            None => writeln!(f, "P{p} hand: {} cards", hand_lens[p]),
        }
    };
    hand_line(f, 1)?;
    writeln!(f, "   {:<15} | P1", "P0")?;
    for (i, flag) in table.flags().iter().enumerate() {
        let slots = flag.env().slots();
        let mut env = String::new();
        // Owners are known only when the rules can move Fog and Mud.
        for (on, name, owner) in [
            (flag.env().fog, " fog", flag.fog_owner()),
            (flag.env().mud, " mud", flag.mud_owner()),
        ] {
            if on {
                env.push_str(name);
                if let Some(p) = owner {
                    env.push_str(&format!(" by {p}"));
                }
            }
        }
        let claim = match flag.claimed() {
            Some(p) => format!(" won by {p}"),
            None => String::new(),
        };
        let first = match (flag.claimed(), flag.first_complete()) {
            (None, Some(p)) => format!(" ({p} complete first)"),
            _ => String::new(),
        };
        let line = format!(
            "F{} {:<15} | {:<15}{env}{claim}{first}",
            i + 1,
            side_text(flag.side(PlayerId::P0), slots),
            side_text(flag.side(PlayerId::P1), slots)
        );
        writeln!(f, "{}", line.trim_end())?;
    }
    hand_line(f, 0)?;
    for p in [PlayerId::P0, PlayerId::P1] {
        let d = table.discards(p);
        if !d.is_empty() {
            writeln!(f, "{p} discards: {d}")?;
        }
    }
    Ok(())
}

impl fmt::Display for BattleLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = self.hands.into_array();
        render(
            f,
            &self.table,
            None,
            [Some(h[0]), Some(h[1])],
            [h[0].len(), h[1].len()],
            [self.deck_len(Deck::Troop), self.deck_len(Deck::Tactics)],
        )
    }
}
