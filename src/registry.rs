//! The games the examples know, behind one object-safe trait, so that a new
//! game joins the arena, `play` and `replay` with a few lines in
//! [`tables`].

use std::io::{self, BufRead, Write};
use std::marker::PhantomData;
use std::time::Instant;

use game_traits::{play_match, Agent, Game, Outcome};

use crate::bots::{build_agent, BotSpec, GameKnowledge};
use crate::play::{play_session, PlayOptions, SessionEnd};
use crate::replay::{replay_record, View};

/// One game under one rule set ("stratego/classic"), playable by name
/// without knowing its type.
pub trait Table: Send + Sync {
    /// The table's name: the game, then `/rule set` where the game has
    /// several.
    fn name(&self) -> &str;

    /// The game's [`Game::NAME`], as written in its records.
    fn game_name(&self) -> &'static str;

    /// Whether `heuristic` names a bot in this game.
    fn has_heuristic(&self) -> bool;

    /// Plays one game, seat `i` by `bots[i]`, from `seed`; the record as
    /// JSON when `keep_record`.
    fn play(&self, bots: [BotSpec; 2], seed: u64, keep_record: bool) -> Result<Played, String>;

    /// A person at `input`/`output` plays against a bot.
    fn play_interactive(
        &self,
        options: &PlayOptions,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
    ) -> io::Result<SessionEnd>;

    /// Checks that `record` (JSON of a record of this game) replays legally
    /// and prints it step by step from `view`.
    fn replay(
        &self,
        record: &str,
        view: View,
        output: &mut dyn Write,
    ) -> Result<Option<Outcome>, String>;
}

/// The result of one bot game.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// Who won (by seat).
    pub outcome: Outcome,
    /// Player decisions.
    pub moves: u32,
    /// Seconds the game took.
    pub seconds: f64,
    /// The record as one line of JSON, when asked for.
    pub record: Option<String>,
}

/// A [`Table`] for game `G` under `rules`.
pub struct GameTable<G: Game> {
    name: String,
    rules: G::Rules,
    knowledge: GameKnowledge<G>,
    _game: PhantomData<fn() -> G>,
}

impl<G: Game + 'static> GameTable<G> {
    /// The table `name` of `G` under `rules`, with default search settings
    /// and no game knowledge.
    pub fn new(name: impl Into<String>, rules: G::Rules) -> Self {
        GameTable {
            name: name.into(),
            rules,
            knowledge: GameKnowledge::default(),
            _game: PhantomData,
        }
    }

    /// With this game knowledge for the bots.
    pub fn with_knowledge(mut self, knowledge: GameKnowledge<G>) -> Self {
        self.knowledge = knowledge;
        self
    }

    /// The rules.
    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    /// Builds the bot `spec`; an error for a heuristic the game lacks.
    pub fn agent(&self, spec: BotSpec) -> Result<Box<dyn Agent<G>>, String> {
        build_agent(spec, &self.knowledge).ok_or_else(|| format!("{} has no {spec} bot", self.name))
    }
}

impl<G: Game + 'static> Table for GameTable<G>
where
    G::Rules: Send + Sync,
{
    fn name(&self) -> &str {
        &self.name
    }

    fn game_name(&self) -> &'static str {
        G::NAME
    }

    fn has_heuristic(&self) -> bool {
        self.knowledge.heuristic.is_some()
    }

    fn play(&self, bots: [BotSpec; 2], seed: u64, keep_record: bool) -> Result<Played, String> {
        let (mut a, mut b) = (self.agent(bots[0])?, self.agent(bots[1])?);
        let start = Instant::now();
        let (state, record) = play_match::<G>(&self.rules, seed, &mut [&mut *a, &mut *b])
            .map_err(|e| format!("{} seed {seed}: {e}", self.name))?;
        let seconds = start.elapsed().as_secs_f64();
        let outcome = state
            .outcome()
            .ok_or_else(|| format!("{} seed {seed}: ended without an outcome", self.name))?;
        let record = match keep_record {
            true => Some(serde_json::to_string(&record).map_err(|e| e.to_string())?),
            false => None,
        };
        Ok(Played {
            outcome,
            moves: state.move_count(),
            seconds,
            record,
        })
    }

    fn play_interactive(
        &self,
        options: &PlayOptions,
        input: &mut dyn BufRead,
        output: &mut dyn Write,
    ) -> io::Result<SessionEnd> {
        let (bot, helper) = match (self.agent(options.bot), self.agent(options.bot)) {
            (Ok(bot), Ok(helper)) => (bot, helper),
            (Err(e), _) | (_, Err(e)) => {
                writeln!(output, "{e}")?;
                return Ok(SessionEnd::Quit);
            }
        };
        play_session::<G>(
            &self.rules,
            self.knowledge.text,
            bot,
            helper,
            options,
            input,
            output,
        )
    }

    fn replay(
        &self,
        record: &str,
        view: View,
        output: &mut dyn Write,
    ) -> Result<Option<Outcome>, String> {
        replay_record::<G>(record, view, output)
    }
}

/// Every table of the games compiled in (features `battleline`,
/// `stratego`, `cardwar`): each rule set of each game.
pub fn tables() -> Vec<Box<dyn Table>> {
    #[allow(unused_mut)]
    let mut tables: Vec<Box<dyn Table>> = Vec::new();
    #[cfg(feature = "battleline")]
    {
        use crate::battleline::{BattleLine, Heuristic, Rules};
        let knowledge = GameKnowledge {
            heuristic: Some(|| Box::new(Heuristic)),
            ..GameKnowledge::default()
        };
        tables.push(Box::new(
            GameTable::<BattleLine>::new("battleline", Rules::default()).with_knowledge(knowledge),
        ));
    }
    #[cfg(feature = "stratego")]
    {
        use crate::bots::{Delegate, SearchDefaults};
        use crate::stratego::{material_evaluation, Heuristic, Observation, Rules, Stratego};
        for (name, rules) in [
            ("stratego/classic", Rules::classic()),
            ("stratego/srazhenie", Rules::srazhenie()),
            ("stratego/czech", Rules::czech()),
        ] {
            // Random playouts of Stratego run for hundreds of moves: cut
            // them short and count the material instead.
            let knowledge = GameKnowledge {
                defaults: SearchDefaults {
                    ismcts_iterations: 100,
                    flat_playouts: 100,
                    playout_limit: Some(40),
                },
                evaluator: Some(material_evaluation),
                heuristic: Some(|| Box::new(Heuristic::default())),
                delegate: Some(Delegate {
                    applies: Observation::in_setup,
                    policy: || Box::new(Heuristic::default()),
                }),
                ..GameKnowledge::default()
            };
            tables.push(Box::new(
                GameTable::<Stratego>::new(name, rules).with_knowledge(knowledge),
            ));
        }
    }
    #[cfg(feature = "cardwar")]
    {
        use crate::bots::SearchDefaults;
        use crate::cardwar::{CardWar, Heuristic, Rules};
        // Mostly dice: the choices differ little under random playouts,
        // so ISMCTS needs more iterations to tell them apart (cheap here).
        let knowledge = GameKnowledge {
            defaults: SearchDefaults {
                ismcts_iterations: 1000,
                ..SearchDefaults::default()
            },
            heuristic: Some(|| Box::new(Heuristic)),
            ..GameKnowledge::default()
        };
        tables.push(Box::new(
            GameTable::<CardWar>::new("cardwar", Rules::default()).with_knowledge(knowledge),
        ));
    }
    tables
}

/// The first of `tables` that plays the game named in a record.
pub fn table_for_record<'a>(
    tables: &'a [Box<dyn Table>],
    json: &str,
) -> Result<&'a dyn Table, String> {
    let game = crate::replay::record_game_name(json)?;
    tables
        .iter()
        .find(|t| t.game_name() == game)
        .map(|t| t.as_ref())
        .ok_or_else(|| format!("no game {game:?} in this build"))
}

/// The tables named in `selection` (comma-separated; a game's name selects
/// all its rule sets), or all of them for `None`.
pub fn select_tables(
    tables: Vec<Box<dyn Table>>,
    selection: Option<&str>,
) -> Result<Vec<Box<dyn Table>>, String> {
    let Some(selection) = selection else {
        return Ok(tables);
    };
    let wanted: Vec<String> = selection
        .split(',')
        .map(|s| s.trim().to_ascii_lowercase())
        .collect();
    for w in &wanted {
        if !tables.iter().any(|t| selects(w, t.name())) {
            let known: Vec<&str> = tables.iter().map(|t| t.name()).collect();
            return Err(format!("no game {w:?}; known: {}", known.join(", ")));
        }
    }
    Ok(tables
        .into_iter()
        .filter(|t| wanted.iter().any(|w| selects(w, t.name())))
        .collect())
}

fn selects(wanted: &str, name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name == wanted || name.split('/').next() == Some(wanted)
}
