//! Games by name with parameters.

use game_env::{rules_with, EnvError, GameDef, GameSpec, Registry};
use game_traits::kuhn::{KuhnAction, KuhnPoker, KuhnRules};
use game_traits::{Named, Preset, RuleSet};
use serde::{Deserialize, Serialize};

fn registry() -> Registry {
    let mut r = Registry::new();
    r.register::<KuhnPoker>(GameDef {
        name: "kuhn",
        doc: "Kuhn poker, the smallest poker",
        preset_key: "variant",
        aliases: &[("stake", "ante")],
        value_aliases: &[("ante", "max", "100")],
        knowledge: Default::default(),
    });
    r
}

#[test]
fn games_load_by_name_preset_and_parameters() {
    let r = registry();
    assert_eq!(r.load("kuhn").unwrap().name(), "kuhn(variant=classic)");
    assert_eq!(
        r.load(" KUHN ( ante = 2 ) ").unwrap().name(),
        "kuhn(variant=classic,ante=2)"
    );
    assert_eq!(r.load("kuhn(variant=high)").unwrap().info().max_return, 4.0);
    assert_eq!(r.load("kuhn/high").unwrap().name(), "kuhn(variant=high)");
    assert_eq!(
        r.load("kuhn(stake=5)").unwrap().name(),
        "kuhn(variant=classic,ante=5)"
    );
    assert_eq!(r.load("kuhn(ante=max)").unwrap().info().max_return, 101.0);
}

#[test]
fn games_and_presets_are_listed_and_titled_by_their_declared_titles() {
    let r = registry();
    let kuhn = &r.list()[0];
    assert_eq!(kuhn.title, "Kuhn Poker");
    let presets: Vec<_> = kuhn
        .presets
        .iter()
        .map(|p| (p.title.as_str(), p.differences.as_str()))
        .collect();
    assert_eq!(
        presets,
        [
            ("Classic", "Ante 1, bet 1: the textbook game."),
            ("High ante", "Ante 3, bet 1: calling is cheaper."),
        ]
    );
    assert_eq!(
        r.load("kuhn/high").unwrap().title(),
        "Kuhn Poker, High ante"
    );
}

#[test]
fn a_changed_preset_is_titled_with_its_changes() {
    let r = registry();
    assert_eq!(
        r.load("kuhn(variant=high,ante=5)").unwrap().title(),
        "Kuhn Poker, High ante, with ante=5"
    );
}

#[test]
fn a_record_under_no_presets_rules_is_titled_own_rules() {
    let r = registry();
    let game = r.load("kuhn(ante=7)").unwrap();
    let (back, _, _) = r.load_record(&game.record_json(1, &[]).unwrap()).unwrap();
    assert_eq!(back.title(), "Kuhn Poker, own rules");
    let classic = r.load("kuhn").unwrap();
    let (back, _, _) = r
        .load_record(&classic.record_json(1, &[]).unwrap())
        .unwrap();
    assert_eq!(back.title(), "Kuhn Poker, Classic");
}

#[test]
fn bad_names_parameters_and_values_are_clear_errors() {
    let r = registry();
    let msg = |spec: &str| r.load(spec).err().unwrap().to_string();
    assert!(matches!(r.load("chess"), Err(EnvError::UnknownGame { .. })));
    assert!(msg("chess").contains("known: kuhn"));
    assert!(matches!(
        r.load("kuhn(colour=red)"),
        Err(EnvError::UnknownParameter { .. })
    ));
    assert!(msg("kuhn(colour=red)").contains("ante"));
    assert!(matches!(
        r.load("kuhn(ante=lots)"),
        Err(EnvError::BadParameter { .. })
    ));
    assert!(matches!(
        r.load("kuhn(ante=300)"),
        Err(EnvError::BadParameter { .. })
    ));
    // Out of the table's range: refused with the range, before the rules
    // are built.
    assert!(matches!(
        r.load("kuhn(ante=0)"),
        Err(EnvError::BadParameter { reason, .. }) if reason.contains("1..=100")
    ));
    assert!(matches!(
        r.load("kuhn(variant=low)"),
        Err(EnvError::BadParameter { .. })
    ));
    for bad in [
        "kuhn(",
        "kuhn(ante)",
        "kuhn(ante=1,ante=2)",
        "",
        "k u h n",
        "kuhn(a=(1))",
    ] {
        assert!(matches!(r.load(bad), Err(EnvError::BadSpec(_))), "{bad:?}");
    }
    let long = format!("kuhn(ante={})", "9".repeat(10_000));
    assert!(r.load(&long).is_err());
    assert!(matches!(
        r.load("kuhn(ante=99999999999999999999999)"),
        Err(EnvError::BadParameter { .. })
    ));
}

#[test]
fn the_listing_names_every_parameter_with_its_default_and_doc() {
    let list = registry().list();
    assert_eq!(list.len(), 1);
    let kuhn = &list[0];
    assert_eq!(kuhn.presets.len(), 2);
    assert_eq!(kuhn.presets[1].spec, "kuhn(variant=high)");
    assert_eq!(kuhn.parameters.len(), 1);
    assert_eq!(kuhn.parameters[0].name, "ante");
    assert_eq!(kuhn.parameters[0].default, "1");
    assert!(kuhn.parameters[0].doc.contains("chips"));
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
enum Order {
    #[default]
    Text,
    UnseenOnly,
}

game_traits::named!(Order { Text, UnseenOnly });

/// A rule set of every kind of option, for the table-driven parser.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Options {
    order: Order,
    limit: Option<u8>,
    flag: bool,
}

impl RuleSet for Options {
    type Action = KuhnAction;
    type Error = game_traits::GameError<KuhnAction>;
    fn validate(&self) -> Result<(), Self::Error> {
        Ok(())
    }
    fn action_space(&self) -> usize {
        KuhnRules::default().action_space()
    }
    fn action_id(&self, action: KuhnAction) -> usize {
        KuhnRules::default().action_id(action)
    }
    fn action_from_id(&self, id: usize) -> Option<KuhnAction> {
        KuhnRules::default().action_from_id(id)
    }
    fn is_chance_outcome(&self, action: KuhnAction) -> bool {
        KuhnRules::default().is_chance_outcome(action)
    }
    fn max_game_length(&self) -> u32 {
        5
    }
    fn presets() -> Vec<Preset<Self>> {
        vec![Preset::new(
            "plain",
            "Plain",
            "Every option at its default.",
            "every option at its default",
            Options::default(),
        )]
    }
    game_traits::parameter_table! {
        order: Choice { values: Order::NAMES }, "an order";
        limit: OptionalInt { min: 0, max: 9 }, "a limit, or none";
        flag: Bool, "a flag";
    }
}

#[test]
fn parameter_values_are_read_as_the_table_says() {
    let base = Options {
        order: Order::Text,
        limit: Some(3),
        flag: false,
    };
    let set = |k: &str, v: &str| rules_with("t", &base, &[(k.to_owned(), v.to_owned())]);
    assert_eq!(
        set("order", "unseen_only").unwrap().order,
        Order::UnseenOnly
    );
    assert_eq!(set("order", "UNSEENONLY").unwrap().order, Order::UnseenOnly);
    assert_eq!(
        set("order", "unseen-only").unwrap().order,
        Order::UnseenOnly
    );
    assert!(matches!(
        set("order", "sideways"),
        Err(EnvError::BadParameter { reason, .. }) if reason.contains("text, unseenonly")
    ));
    assert_eq!(set("limit", "none").unwrap().limit, None);
    assert_eq!(set("limit", "7").unwrap().limit, Some(7));
    assert!(set("limit", "-1").is_err());
    assert!(set("limit", "10").is_err(), "past the table's range");
    assert!(set("flag", "true").unwrap().flag);
    assert!(set("flag", "yes").is_err());
    assert!(matches!(
        set("colour", "red"),
        Err(EnvError::UnknownParameter { known, .. }) if known == "order, limit, flag"
    ));
    assert_eq!(
        GameSpec::parse("a(b=1,c=x)").unwrap().to_string(),
        "a(b=1,c=x)"
    );
}

#[test]
fn every_option_is_listed_with_its_value() {
    let listed: Vec<(&str, String)> = game_env::parameters(&Options::default())
        .into_iter()
        .map(|(p, v)| (p.name, v))
        .collect();
    assert_eq!(
        listed,
        vec![
            ("order", "text".to_owned()),
            ("limit", "none".to_owned()),
            ("flag", "false".to_owned()),
        ]
    );
}

#[test]
fn loaded_games_make_their_bots() {
    use game_env::BotSpec;
    let game = registry().load("kuhn").unwrap();
    let mut state = game.new_state();
    state.apply_id(0).unwrap();
    state.apply_id(1).unwrap();
    let mut rng = game_env::episode_rng(0, 0, 0);
    for spec in ["random", "flat:20", "ismcts:30"] {
        let mut bot = game.bot(spec.parse::<BotSpec>().unwrap()).unwrap();
        let id = bot
            .choose(state.as_ref(), game_traits::PlayerId::P0, &mut rng)
            .unwrap();
        assert_eq!(state.check_id(id), Ok(()), "{spec}");
    }
    assert!(game.bot(BotSpec::Heuristic).is_err());
}

#[test]
fn records_round_trip_through_the_registry() {
    let r = registry();
    let game = r.load("kuhn(variant=high)").unwrap();
    let mut state = game.new_state();
    let ids = [2, 0, 4, 4];
    for id in ids {
        state.apply_id(id).unwrap();
    }
    let json = game.record_json(9, &ids).unwrap();
    let (back, seed, back_ids) = r.load_record(&json).unwrap();
    assert_eq!((seed, back_ids.as_slice()), (9, &ids[..]));
    assert_eq!(back.rules_json(), game.rules_json());
    assert_eq!(back.title(), game.title());
    // A record that does not replay, of an unknown game, or not JSON.
    assert!(r
        .load_record(&json.replace("[{\"Deal\":\"King\"}", "[\"Bet\""))
        .is_err());
    assert!(matches!(
        r.load_record(&json.replace("kuhn-poker", "chess")),
        Err(EnvError::UnknownGame { .. })
    ));
    assert!(r.load_record("{").is_err());
    assert!(game.record_json(0, &[99]).is_err());
}
