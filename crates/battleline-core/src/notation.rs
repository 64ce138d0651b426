//! The one-line text notation of a whole position.

use std::fmt::Write as _;
use std::str::FromStr;

use game_traits::{Outcome, PlayerId};

use crate::card::{Card, CardSet, Deck};
use crate::error::BattleLineError;
use crate::flag::{FlagId, FLAGS};
use crate::formation::FormationOrder;
use crate::position::PositionBuilder;
use crate::rules::{
    ClaimTiming, EnvironmentTactics, LastPass, LeaderLimit, ProofTie, Rules, WildCards,
};
use crate::state::{BattleLine, Phase, Table};

const BAD: fn(&'static str) -> BattleLineError = BattleLineError::InvalidPosition;

/// The rule options that differ from the default, by name.
const RULE_NAMES: [&str; 9] = [
    "published-order",
    "claims-at-start",
    "leader-one-on-table",
    "tie-blocks",
    "first-P1",
    "movable-environment",
    "unseen-wilds",
    "troops-only",
    "last-pass-settles",
];

fn rule_flags(r: &Rules) -> [bool; 9] {
    [
        r.formation_order == FormationOrder::Published,
        r.claim_timing == ClaimTiming::StartOfTurn,
        r.leader_limit == LeaderLimit::OneOnTable,
        r.proof_tie == ProofTie::Blocks,
        r.first_player == PlayerId::P1,
        r.environment_tactics == EnvironmentTactics::Movable,
        r.wild_cards == WildCards::UnseenOnly,
        !r.tactics,
        r.last_pass == LastPass::SettleAtOnce,
    ]
}

fn set_rule(r: &mut Rules, i: usize) {
    match i {
        0 => r.formation_order = FormationOrder::Published,
        1 => r.claim_timing = ClaimTiming::StartOfTurn,
        2 => r.leader_limit = LeaderLimit::OneOnTable,
        3 => r.proof_tie = ProofTie::Blocks,
        4 => r.first_player = PlayerId::P1,
        5 => r.environment_tactics = EnvironmentTactics::Movable,
        6 => r.wild_cards = WildCards::UnseenOnly,
        7 => r.tactics = false,
        _ => r.last_pass = LastPass::SettleAtOnce,
    }
}

pub(crate) fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Setup => "setup",
        Phase::Play => "play",
        Phase::Claim => "claim",
        Phase::Draw => "draw",
        Phase::Deal(Deck::Troop) => "deal-troop",
        Phase::Deal(Deck::Tactics) => "deal-tactics",
        Phase::Return => "return",
        Phase::Over => "over",
    }
}

const PHASES: [Phase; 8] = [
    Phase::Setup,
    Phase::Play,
    Phase::Claim,
    Phase::Draw,
    Phase::Deal(Deck::Troop),
    Phase::Deal(Deck::Tactics),
    Phase::Return,
    Phase::Over,
];

pub(crate) fn write_cards(
    out: &mut String,
    cards: impl Iterator<Item = Card>,
    mark: impl Fn(Card) -> bool,
) {
    let mut any = false;
    for c in cards {
        if any {
            out.push(',');
        }
        any = true;
        let _ = write!(out, "{c}");
        if mark(c) {
            out.push('!');
        }
    }
    if !any {
        out.push('-');
    }
}

fn seat(s: &str) -> Result<PlayerId, BattleLineError> {
    match s {
        "P0" => Ok(PlayerId::P0),
        "P1" => Ok(PlayerId::P1),
        _ => Err(BAD("a seat is P0 or P1")),
    }
}

/// Cards separated by commas, or `-` for none; each may carry a `!`.
fn parse_cards(s: &str) -> Result<Vec<(Card, bool)>, BattleLineError> {
    if s == "-" {
        return Ok(Vec::new());
    }
    s.split(',')
        .map(|t| {
            let (t, marked) = match t.strip_suffix('!') {
                Some(t) => (t, true),
                None => (t, false),
            };
            Ok((t.parse::<Card>().map_err(|_| BAD("unknown card"))?, marked))
        })
        .collect()
}

fn parse_set(s: &str) -> Result<CardSet, BattleLineError> {
    Ok(parse_unmarked(s)?.into_iter().collect())
}

/// Cards in the order given, none marked.
fn parse_unmarked(s: &str) -> Result<Vec<Card>, BattleLineError> {
    let cards = parse_cards(s)?;
    if cards.iter().any(|&(_, m)| m) {
        return Err(BAD("a `!` outside a hand"));
    }
    Ok(cards.into_iter().map(|(c, _)| c).collect())
}

fn pair(s: &str) -> Result<(&str, &str), BattleLineError> {
    s.split_once('/').ok_or(BAD("two sides separated by `/`"))
}

fn number<T: FromStr>(s: &str) -> Result<T, BattleLineError> {
    s.parse().map_err(|_| BAD("not a number"))
}

impl BattleLine {
    /// The whole position in one line: every flag (cards of each side in
    /// the order played, Fog and Mud with their owners where recorded, who
    /// completed first, claims), whose turn and its phase, both hands (with
    /// the cards the other player knows), both decks (unordered cards left
    /// below, then Scout's returns in order), both discard piles, the
    /// tactics played, the turn counters, the move counter and the rule
    /// options that differ from the default. The syntax is in the rules
    /// document (`docs/battleline.md`, "Position notation"):
    ///
    /// ```text
    /// <flag>|<flag>|...|<flag> <P>:<phase> h=<hand>/<hand> d=<n>[+<cards>]/<n>[+<cards>]
    ///     x=<discards>/<discards> t=<n>[L]/<n>[L] [draws=<n>] [returns=<n>] [drawn=<n>]
    ///     [passes=<n>] [scout=<P>] [result=<P>|draw] m=<moves> [end=claim] [rules=<option>,...]
    /// ```
    ///
    /// ```
    /// use battleline_core::{BattleLine, Game, Rules};
    /// let game = BattleLine::new(&Rules::default()).unwrap();
    /// assert_eq!(
    ///     game.to_notation(),
    ///     "-/-|-/-|-/-|-/-|-/-|-/-|-/-|-/-|-/- P0:setup h=-/- d=60/10 x=-/- t=0/0 m=0"
    /// );
    /// let line = "R8,R9,R10*/B2|-/-|-/-|F:-/-|M:-/-|-/-|-/-|-/-|-/- P0:claim h=R1,R2/B5 d=53/8 x=-/- t=1/1 draws=1 m=8";
    /// let position = BattleLine::from_notation(line).unwrap();
    /// assert_eq!(position.to_notation(), line);
    /// ```
    pub fn to_notation(&self) -> String {
        let t = &self.table;
        let mut out = String::new();
        write_flags(&mut out, t);
        let _ = write!(out, " {}:{}", t.player, phase_name(t.phase));
        out.push_str(" h=");
        for p in PlayerId::all() {
            if p == PlayerId::P1 {
                out.push('/');
            }
            let known = self.revealed[p.other()];
            write_cards(&mut out, self.hands[p].iter(), |c| known.contains(c));
        }
        out.push_str(" d=");
        for d in Deck::ALL {
            if d == Deck::Tactics {
                out.push('/');
            }
            let _ = write!(out, "{}", self.pools[d.index()].len());
            let top = self.tops[d.index()];
            if !top.is_empty() {
                out.push('+');
                write_cards(&mut out, top.cards(), |_| false);
            }
        }
        write_public_tail(&mut out, t, &self.rules);
        out
    }

    /// Parses [`BattleLine::to_notation`]'s format; the position is
    /// validated like a deserialised state. Never panics: any other text is
    /// an [`BattleLineError::InvalidPosition`].
    pub fn from_notation(text: &str) -> Result<BattleLine, BattleLineError> {
        let mut tokens = text.split_whitespace();
        let flags = tokens.next().ok_or(BAD("empty notation"))?;
        let turn = tokens.next().ok_or(BAD("no turn"))?;
        const KEYS: [&str; 13] = [
            "h", "d", "x", "t", "draws", "returns", "drawn", "passes", "scout", "result", "m",
            "rules", "end",
        ];
        let mut fields: [Option<&str>; 13] = [None; 13];
        for tok in tokens {
            let (k, v) = tok.split_once('=').ok_or(BAD("a field is key=value"))?;
            let i = KEYS
                .iter()
                .position(|&key| key == k)
                .ok_or(BAD("unknown field"))?;
            if fields[i].replace(v).is_some() {
                return Err(BAD("a field given twice"));
            }
        }
        let need = |i: usize| fields[i].ok_or(BAD("missing field (h, d, x, t and m are needed)"));
        let mut rules = Rules::default();
        if let Some(list) = fields[11] {
            for name in list.split(',') {
                let i = RULE_NAMES
                    .iter()
                    .position(|&n| n == name)
                    .ok_or(BAD("unknown rule option"))?;
                set_rule(&mut rules, i);
            }
        }
        let mut b = PositionBuilder::new(rules);
        let entries: Vec<&str> = flags.split('|').collect();
        if entries.len() != FLAGS {
            return Err(BAD("nine flags separated by `|`"));
        }
        for (i, entry) in entries.into_iter().enumerate() {
            let flag = FlagId::new(i).ok_or(BAD("nine flags"))?;
            b = parse_flag(b, flag, entry)?;
        }
        let (who, phase) = turn.split_once(':').ok_or(BAD("the turn is <P>:<phase>"))?;
        let phase = PHASES
            .into_iter()
            .find(|&p| phase_name(p) == phase)
            .ok_or(BAD("unknown phase"))?;
        b = b.turn(seat(who)?, phase);
        let (h0, h1) = pair(need(0)?)?;
        for (p, s) in [(PlayerId::P0, h0), (PlayerId::P1, h1)] {
            let cards = parse_cards(s)?;
            let hand = cards.iter().map(|&(c, _)| c).collect();
            let known = cards.iter().filter(|&&(_, m)| m).map(|&(c, _)| c).collect();
            b = b.hand(p, hand).known(p.other(), known);
        }
        let (d0, d1) = pair(need(1)?)?;
        let mut counts = [0usize; 2];
        for (d, s) in [(Deck::Troop, d0), (Deck::Tactics, d1)] {
            let (n, top) = match s.split_once('+') {
                Some((n, top)) => (n, parse_unmarked(top)?),
                None => (s, Vec::new()),
            };
            counts[d.index()] = number(n)?;
            b = b.returned(d, &top);
        }
        let (x0, x1) = pair(need(2)?)?;
        b = b
            .discards(PlayerId::P0, parse_set(x0)?)
            .discards(PlayerId::P1, parse_set(x1)?);
        let (t0, t1) = pair(need(3)?)?;
        for (p, s) in [(PlayerId::P0, t0), (PlayerId::P1, t1)] {
            let (n, leader) = match s.strip_suffix('L') {
                Some(n) => (n, true),
                None => (s, false),
            };
            b = b.tactics_played(p, number(n)?, leader);
        }
        let small = |i: usize| fields[i].map_or(Ok(0), number::<u8>);
        b = b
            .draws_due(small(4)?)
            .returns_due(small(5)?)
            .drawn(small(6)?)
            .passes(small(7)?);
        if let Some(s) = fields[8] {
            b = b.scout_by(Some(seat(s)?));
        }
        if let Some(s) = fields[9] {
            let o = match s {
                "draw" => Outcome::Draw,
                s => Outcome::Win(seat(s)?),
            };
            b = b.outcome(Some(o));
        }
        b = b.moves(number(need(10)?)?);
        match fields[12] {
            None => {}
            Some("claim") => b = b.settled(false),
            Some(_) => return Err(BAD("end= is only `claim`")),
        }
        let state = b.build()?;
        if fields[12].is_some() && !ended_by_claim_after_passes(&state.table) {
            return Err(BAD(
                "end=claim names a game won by a claim after two passes",
            ));
        }
        for d in Deck::ALL {
            if state.pools[d.index()].len() != counts[d.index()] {
                return Err(BAD("a deck's count does not match the cards left for it"));
            }
        }
        Ok(state)
    }
}

/// The nine flags, `|`-separated: `[<env>:]<side P0>/<side P1>`.
pub(crate) fn write_flags(out: &mut String, t: &Table) {
    for (i, f) in t.flags.iter().enumerate() {
        if i > 0 {
            out.push('|');
        }
        let env = f.env();
        if env.fog || env.mud {
            for (on, letter, owner) in
                [(env.fog, 'F', f.fog_owner()), (env.mud, 'M', f.mud_owner())]
            {
                if on {
                    out.push(letter);
                    if let Some(p) = owner {
                        let _ = write!(out, "{}", p.index());
                    }
                }
            }
            out.push(':');
        }
        for p in PlayerId::all() {
            if p == PlayerId::P1 {
                out.push('/');
            }
            write_cards(out, f.side(p).iter(), |_| false);
            if f.first_complete() == Some(p) {
                out.push('*');
            }
            if f.claimed() == Some(p) {
                out.push('#');
            }
        }
    }
}

/// The public fields after the hands and decks: ` x=.. t=..`, the turn
/// counters, `scout=`, `result=`, ` m=..`, `end=claim` and `rules=`.
pub(crate) fn write_public_tail(out: &mut String, t: &Table, rules: &Rules) {
    out.push_str(" x=");
    for p in PlayerId::all() {
        if p == PlayerId::P1 {
            out.push('/');
        }
        write_cards(out, t.discards[p].iter(), |_| false);
    }
    out.push_str(" t=");
    for p in PlayerId::all() {
        if p == PlayerId::P1 {
            out.push('/');
        }
        let _ = write!(out, "{}", t.tactics_played[p]);
        if t.leaders_played[p] {
            out.push('L');
        }
    }
    for (key, n) in [
        ("draws", t.draws_due),
        ("returns", t.returns_due),
        ("drawn", t.drawn),
        ("passes", t.passes),
    ] {
        if n > 0 {
            let _ = write!(out, " {key}={n}");
        }
    }
    if let Some(p) = t.scout_by {
        let _ = write!(out, " scout={p}");
    }
    match t.outcome {
        Some(Outcome::Win(p)) => {
            let _ = write!(out, " result={p}");
        }
        Some(Outcome::Draw) => out.push_str(" result=draw"),
        None => {}
    }
    let _ = write!(out, " m={}", t.moves);
    if ended_by_claim_after_passes(t) {
        out.push_str(" end=claim");
    }
    let options: Vec<&str> = rule_flags(rules)
        .iter()
        .zip(RULE_NAMES)
        .filter_map(|(&on, name)| on.then_some(name))
        .collect();
    if !options.is_empty() {
        let _ = write!(out, " rules={}", options.join(","));
    }
}

/// Whether a finished game after two passes in a row was won by a claim
/// in the passer's claim step rather than settled by the end rule: the one
/// case the notation must say (`end=claim`), the rest follow from `passes`.
pub(crate) fn ended_by_claim_after_passes(t: &crate::state::Table) -> bool {
    t.passes == 2 && t.phase == Phase::Over && !t.settled
}

/// One flag: `[<env>:]<side>/<side>`, the environment letters `F` and `M`
/// each with an optional owner digit, a side `-` or cards, then `*` when
/// it completed first and `#` when it claimed the flag.
fn parse_flag(
    mut b: PositionBuilder,
    flag: FlagId,
    entry: &str,
) -> Result<PositionBuilder, BattleLineError> {
    let sides = match entry.split_once(':') {
        Some((env, sides)) => {
            let mut chars = env.chars().peekable();
            while let Some(c) = chars.next() {
                let owner = match chars.peek() {
                    Some('0') => Some(PlayerId::P0),
                    Some('1') => Some(PlayerId::P1),
                    _ => None,
                };
                if owner.is_some() {
                    chars.next();
                }
                b = match c {
                    'F' => b.fog(flag, owner),
                    'M' => b.mud(flag, owner),
                    _ => return Err(BAD("the environment is F and M with owners 0 or 1")),
                };
            }
            sides
        }
        None => entry,
    };
    let (s0, s1) = pair(sides)?;
    let mut first = None;
    let mut any_claim = false;
    for (p, s) in [(PlayerId::P0, s0), (PlayerId::P1, s1)] {
        let (s, claimed) = match s.strip_suffix('#') {
            Some(s) => (s, true),
            None => (s, false),
        };
        let s = match s.strip_suffix('*') {
            Some(s) => {
                if first.replace(p).is_some() {
                    return Err(BAD("both sides completed first"));
                }
                s
            }
            None => s,
        };
        for c in parse_unmarked(s)? {
            b = b.place(flag, p, c);
        }
        if claimed {
            if any_claim {
                return Err(BAD("both sides claimed the flag"));
            }
            any_claim = true;
            b = b.claim(flag, p);
        }
    }
    Ok(b.first_complete(flag, first))
}

impl FromStr for BattleLine {
    type Err = BattleLineError;
    fn from_str(s: &str) -> Result<BattleLine, BattleLineError> {
        BattleLine::from_notation(s)
    }
}
