//! Plays a seeded game of card war between two bots and narrates it round
//! by round: draws, lines, dice, wounds and prayers.
//!
//! `cargo run -p cardwar-core --example cardwar_game -- [seed]`

use cardwar_core::{Action, CardWar, LayKind, Observation, Open, Phase, Prayer, Rules};
use game_traits::{agent_rng, chance_rng, Agent, Game, GameRng, PlayerId, RandomAgent, Turn};
use rand::Rng;

/// A plain bot: strongest cards first, always attacks with everything,
/// prays when its open card is weaker than the opponent's.
struct StrongFirst;

impl Agent<CardWar> for StrongFirst {
    fn name(&self) -> String {
        "strong-first".to_owned()
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        let p = obs.public();
        let me = obs.viewer();
        match p.phase {
            Phase::Pray { .. } => {
                let health = |s: PlayerId| match p.battle.open[s] {
                    Open::Soldier => p.sides[s].line.slots()[0].health,
                    Open::Guard(g) => p.sides[s].guards[g.index()],
                    Open::None => 0,
                };
                if health(me) < health(me.other()) {
                    Action::Pray
                } else {
                    Action::Decline
                }
            }
            // Legal placements are sorted by id, so by strength: the last
            // is the strongest (never EndLine while a card is left).
            Phase::Lay { .. } => *legal
                .iter()
                .rev()
                .find(|a| matches!(a, Action::Place(_)))
                .unwrap_or(&legal[rng.random_range(0..legal.len())]),
            _ => legal[rng.random_range(0..legal.len())],
        }
    }
}

fn open_name(g: &CardWar, p: PlayerId) -> String {
    match g.public().battle.open[p] {
        Open::Soldier => g.line_card(p, 0).map_or("?".into(), |c| c.to_string()),
        Open::Guard(guard) => guard.to_string(),
        Open::None => "-".into(),
    }
}

/// A side's line as `[open:health] card:health (face-down)`, as its owner
/// would see it.
fn line_text(g: &CardWar, p: PlayerId) -> String {
    let side = g.side(p);
    let mut parts: Vec<String> = Vec::new();
    if let Open::Guard(guard) = g.public().battle.open[p] {
        parts.push(format!("[{guard}:{}]", side.guards[guard.index()]));
    }
    for (i, slot) in side.line.slots().iter().enumerate() {
        let card = g.line_card(p, i).map_or("?".into(), |c| c.to_string());
        parts.push(match slot.card {
            Some(_) => format!("{card}:{}", slot.health),
            None => format!("({card})"),
        });
    }
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(" ")
    }
}

fn show_lines(g: &CardWar) {
    if g.outcome().is_some() {
        return;
    }
    let a = g.public().battle.attacker;
    let d = a.other();
    println!(
        "  now {a}: {}  |  {d}: {}",
        line_text(g, a),
        line_text(g, d)
    );
}

fn narrate(before: &CardWar, action: Action, after: &CardWar) {
    let b = before.public();
    match (before.phase(), action) {
        (Phase::Initiative { first_die: 0 }, Action::Die(d)) => {
            println!("P0 rolls {d} for the initiative")
        }
        (Phase::Initiative { .. }, Action::Die(d)) => {
            println!("P1 rolls {d}: {} attacks first", after.public().first)
        }
        (Phase::DrawRoll { player }, Action::Dice(s)) => {
            let drawn = match after.phase() {
                Phase::Draw { left, .. } => left,
                _ => 0,
            };
            println!(
                "{player} rolls 2d6 = {s} and draws {drawn} card(s) (pile {})",
                before.side(player).pile
            )
        }
        (Phase::Lay { player, kind, .. }, _) if !matches!(after.phase(), Phase::Lay { player: q, .. } if q == player) =>
        {
            let n = after.side(player).line.len();
            match kind {
                LayKind::Defence => println!("{player} lays {n} defenders face down"),
                _ if after.public().swapped => {
                    println!("{player} attacks instead (halved army) with {n} card(s)")
                }
                _ => println!(
                    "{player} attacks with {n} card(s), keeps {} in hand",
                    after.side(player).hand
                ),
            }
        }
        (Phase::Pray { player }, Action::Pray) => print!("{player} prays to the gods: "),
        (Phase::PrayerRoll { .. }, Action::Dice(s)) => {
            println!(
                "2d6 = {s}, {}",
                Prayer::from_sum(s).map_or("?", |p| p.name())
            );
            if !matches!(
                after.phase(),
                Phase::Reinforce { .. } | Phase::ParatrooperRoll { .. }
            ) {
                show_lines(after);
            }
        }
        (Phase::ParatrooperRoll { .. }, Action::Die(d)) => {
            println!("  {d} paratroopers are called")
        }
        (Phase::Reinforce { left: 1, .. }, Action::Draw(_)) => show_lines(after),
        (Phase::DefenceDie, Action::Die(_)) => {
            let a = b.battle.attacker;
            let d = a.other();
            let (an, dn) = (open_name(before, a), open_name(before, d));
            let (ah, dh) = (
                before.open_health(a).unwrap_or(0),
                before.open_health(d).unwrap_or(0),
            );
            if let Some(r) = after.public().battle.last_fight {
                // The winner keeps the difference, at most its health.
                let kept = |diff: u16, health: u8| {
                    if before.rules().cap_winner_health {
                        diff.min(health as u16)
                    } else {
                        diff
                    }
                };
                let verdict = match r.attack_total.cmp(&r.defence_total) {
                    std::cmp::Ordering::Greater => {
                        format!(
                            "{dn} dies, {an} keeps {}",
                            kept(r.attack_total - r.defence_total, ah)
                        )
                    }
                    std::cmp::Ordering::Less => {
                        format!(
                            "{an} dies, {dn} keeps {}",
                            kept(r.defence_total - r.attack_total, dh)
                        )
                    }
                    std::cmp::Ordering::Equal => "both die".to_owned(),
                };
                println!(
                    "  {a} {an}({ah}) rolls {} = {}  vs  {d} {dn}({dh}) rolls {} = {}: {verdict}",
                    r.attack_die, r.attack_total, r.defence_die, r.defence_total
                );
            }
        }
        _ => {}
    }
}

fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let rules = Rules::default();
    let mut game = CardWar::new(&rules).expect("default rules are valid");
    let mut bots: [Box<dyn Agent<CardWar>>; 2] = [Box::new(StrongFirst), Box::new(RandomAgent)];
    let mut rngs = [agent_rng(seed, PlayerId::P0), agent_rng(seed, PlayerId::P1)];
    let mut chance = chance_rng(seed);
    let mut legal = Vec::new();
    println!(
        "card war, seed {seed}: P0 {} (black) vs P1 {} (red)",
        bots[0].name(),
        bots[1].name()
    );
    let mut round = 0;
    let mut battle = (0, 0);
    while game.turn() != Turn::Terminal {
        if game.round() != round {
            round = game.round();
            println!("\n=== round {round} ===");
        }
        let key = (round, game.public().battle_no);
        if battle != key && matches!(game.phase(), Phase::AttackDie | Phase::Pray { .. }) {
            battle = key;
            println!(
                "--- battle {}: {} attacks ---\n{game}",
                key.1,
                game.public().battle.attacker
            );
        }
        let action = match game.turn() {
            Turn::Chance => game
                .sample_chance(&mut chance)
                .expect("a chance event has outcomes"),
            Turn::Player(p) => {
                game.legal_actions(&mut legal);
                bots[p.index()].choose(&game.observation(p), &legal, &mut rngs[p.index()])
            }
            Turn::Terminal => break,
        };
        let before = game.clone();
        game.apply(action).expect("bots choose legal actions");
        narrate(&before, action, &game);
    }
    println!("\n{game}");
    println!(
        "result after {} round(s) and {} decisions: {}",
        game.round(),
        game.move_count(),
        game.outcome().map_or("?".to_owned(), |o| o.to_string())
    );
}
