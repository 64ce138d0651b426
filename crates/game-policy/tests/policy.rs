//! Policy files against the games they were trained on and against the
//! others. The fixtures are tiny untrained networks written by the
//! reference trainer (`tests/fixtures/README.md` has the commands).

use std::path::PathBuf;
use std::sync::Arc;

use game_env::{DynGame, Opponent};
use game_policy::{PolicyBot, PolicyError, PolicyFile, PolicyShelf, FORMAT};
use game_traits::{agent_rng, chance_rng, PlayerId, Turn};
use prost::Message;
use tract_onnx::pb::ModelProto;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn game(spec: &str) -> Arc<dyn DynGame> {
    game_registry::registry().load(spec).unwrap()
}

fn proto(name: &str) -> ModelProto {
    ModelProto::decode(&std::fs::read(fixture(name)).unwrap()[..]).unwrap()
}

/// The fixture `name` with its metadata `key` set to `value` (removed
/// when `None`), as bytes.
fn with_metadata(name: &str, key: &str, value: Option<&str>) -> Vec<u8> {
    let mut model = proto(name);
    model.metadata_props.retain(|p| p.key != key);
    if let Some(value) = value {
        model
            .metadata_props
            .push(tract_onnx::pb::StringStringEntryProto {
                key: key.to_owned(),
                value: value.to_owned(),
            });
    }
    model.encode_to_vec()
}

/// Plays `games` full games of `game`, `policy` on seat `g % 2` of game
/// `g` and uniform random moves on the other, checking that every choice
/// of the policy is legal; returns the policy's wins.
fn play(game: &dyn DynGame, policy: &Arc<PolicyFile>, games: u64) -> u64 {
    let mut bot = PolicyBot::new("policy:test".into(), policy.clone());
    let mut legal = Vec::new();
    let mut wins = 0;
    for g in 0..games {
        let mine = PlayerId::from_index((g % 2) as usize).unwrap();
        let mut chance = chance_rng(g);
        let mut rng = agent_rng(g, mine);
        let mut state = game.new_state();
        let mut moves = 0;
        loop {
            let id = match state.turn() {
                Turn::Terminal => break,
                Turn::Chance => state.sample_chance_id(&mut chance).unwrap(),
                Turn::Player(p) if p == mine => {
                    let id = bot.choose(state.as_ref(), p, &mut rng).unwrap();
                    state.legal_ids(&mut legal);
                    assert!(legal.contains(&id), "game {g}: {id} is not legal");
                    id
                }
                Turn::Player(_) => state.sample_legal_id(&mut rng).unwrap(),
            };
            state.apply_id(id).unwrap();
            moves += 1;
            assert!(
                moves <= game.info().max_game_length,
                "game {g} does not end"
            );
        }
        wins += u64::from(state.returns()[mine.index()] > 0.0);
    }
    wins
}

#[test]
fn a_policy_file_plays_full_games_of_its_game() {
    for (file, spec, games) in [
        ("cardwar.onnx", "cardwar", 6),
        ("kuhn_poker.onnx", "kuhn_poker", 200),
    ] {
        let game = game(spec);
        let policy = Arc::new(PolicyFile::load(&fixture(file), game.as_ref()).unwrap());
        assert_eq!(policy.trained().game, game.info().name);
        assert_eq!(policy.trained().size, game.layout().size());
        play(game.as_ref(), &policy, games);
    }
}

#[test]
fn a_policy_plays_only_legal_actions_whatever_its_logits() {
    // The output layer's bias pushes every chance outcome's id (never a
    // legal decision) far above the decisions: the mask still rules.
    let game = game("cardwar");
    let decisions = game.decision_ids();
    let mut model = proto("cardwar.onnx");
    let graph = model.graph.as_mut().unwrap();
    let bias = graph
        .initializer
        .iter_mut()
        .find(|t| t.name.ends_with("logits.bias"))
        .unwrap();
    let mut values: Vec<f32> = bias
        .raw_data
        .chunks(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(values.len(), game.info().action_space);
    for (id, v) in values.iter_mut().enumerate() {
        *v = if decisions.contains(&id) { 0.0 } else { 1e30 };
    }
    bias.raw_data = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let policy = Arc::new(PolicyFile::from_bytes(&model.encode_to_vec(), game.as_ref()).unwrap());
    let logits = policy.logits(&vec![0.0; game.layout().size()]).unwrap();
    let top = (0..logits.len())
        .max_by(|&a, &b| logits[a].total_cmp(&logits[b]))
        .unwrap();
    assert!(!decisions.contains(&top), "the network prefers a chance id");
    play(game.as_ref(), &policy, 4);
}

#[test]
fn a_policy_for_another_game_is_refused() {
    let cardwar = std::fs::read(fixture("cardwar.onnx")).unwrap();
    for spec in ["battleline", "kuhn_poker"] {
        let err = PolicyFile::from_bytes(&cardwar, game(spec).as_ref()).unwrap_err();
        assert!(
            matches!(&err, PolicyError::WrongGame { trained, .. } if trained == "cardwar"),
            "{spec}: {err}"
        );
    }
    let err = PolicyFile::load(&fixture("kuhn_poker.onnx"), game("cardwar").as_ref()).unwrap_err();
    assert!(matches!(err, PolicyError::WrongGame { .. }), "{err}");
}

#[test]
fn a_policy_for_other_rules_of_its_game_is_refused() {
    let err =
        PolicyFile::load(&fixture("cardwar.onnx"), game("cardwar/hand_24").as_ref()).unwrap_err();
    assert!(
        matches!(&err, PolicyError::WrongRules { table, .. } if table.contains("hand_24")),
        "{err}"
    );
    let err = PolicyFile::load(
        &fixture("kuhn_poker.onnx"),
        game("kuhn_poker(ante=2)").as_ref(),
    )
    .unwrap_err();
    assert!(matches!(err, PolicyError::WrongRules { .. }), "{err}");
}

#[test]
fn a_corrupt_file_is_a_typed_error() {
    let game = game("cardwar");
    let bytes = std::fs::read(fixture("cardwar.onnx")).unwrap();
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    for (what, bad) in [
        ("empty", Vec::new()),
        ("garbage", garbage),
        ("text", b"not a model at all\n".to_vec()),
        ("first half", bytes[..bytes.len() / 2].to_vec()),
        ("last byte cut", bytes[..bytes.len() - 1].to_vec()),
    ] {
        let err = PolicyFile::from_bytes(&bad, game.as_ref()).unwrap_err();
        assert!(
            matches!(
                err,
                PolicyError::Corrupt(_) | PolicyError::NotAPolicy(_) | PolicyError::Network(_)
            ),
            "{what}: {err}"
        );
    }
    // A byte changed anywhere: a typed error or a network that still runs
    // and plays legally, never a panic.
    for at in (0..bytes.len()).step_by(97) {
        let mut bad = bytes.clone();
        bad[at] ^= 0xA5;
        if let Ok(policy) = PolicyFile::from_bytes(&bad, game.as_ref()) {
            play(game.as_ref(), &Arc::new(policy), 1);
        }
    }
    let missing = PolicyFile::load(&fixture("no-such.onnx"), game.as_ref()).unwrap_err();
    assert!(matches!(missing, PolicyError::Read { .. }), "{missing}");
}

#[test]
fn policy_metadata_that_does_not_fit_is_a_typed_error() {
    let game = game("cardwar");
    let load = |key: &str, value: Option<&str>| {
        PolicyFile::from_bytes(&with_metadata("cardwar.onnx", key, value), game.as_ref())
    };
    assert_eq!(
        load("tabletop.format", None).unwrap_err(),
        PolicyError::NotAPolicy("tabletop.format")
    );
    assert_eq!(
        load("tabletop.rules", None).unwrap_err(),
        PolicyError::NotAPolicy("tabletop.rules")
    );
    assert!(matches!(
        load("tabletop.format", Some("tabletop-policy/2")).unwrap_err(),
        PolicyError::Format { found } if found == "tabletop-policy/2"
    ));
    assert!(load("tabletop.format", Some(FORMAT)).is_ok());
    assert!(matches!(
        load("tabletop.observation", Some("{\"size\":")).unwrap_err(),
        PolicyError::BadMetadata {
            key: "tabletop.observation",
            ..
        }
    ));
    assert!(matches!(
        load("tabletop.actions", Some("many")).unwrap_err(),
        PolicyError::BadMetadata {
            key: "tabletop.actions",
            ..
        }
    ));
    assert!(matches!(
        load("tabletop.actions", Some("67")).unwrap_err(),
        PolicyError::WrongShape { .. }
    ));
    assert!(matches!(
        load("tabletop.observation", Some("{\"size\":956,\"planes\":[]}")).unwrap_err(),
        PolicyError::WrongShape { .. }
    ));
    assert!(matches!(
        load("tabletop.rules", Some("not json")).unwrap_err(),
        PolicyError::WrongRules { .. }
    ));
}

#[test]
fn a_policy_shelf_names_files_of_its_directory_only() {
    let shelf = PolicyShelf::new(fixture("")).unwrap();
    assert_eq!(shelf.names(), ["cardwar.onnx", "kuhn_poker.onnx"]);
    let cardwar = game("cardwar");
    let mut bot = shelf.bot("cardwar.onnx", cardwar.as_ref()).unwrap();
    assert_eq!(bot.name(), "policy:cardwar.onnx");
    let mut state = cardwar.new_state();
    state.play_chance(&mut chance_rng(3));
    let seat = match state.turn() {
        Turn::Player(p) => p,
        other => panic!("{other:?}"),
    };
    let id = bot
        .choose(state.as_ref(), seat, &mut agent_rng(3, seat))
        .unwrap();
    assert!(state.check_id(id).is_ok());
    for bad in [
        "",
        ".onnx",
        "../cardwar.onnx",
        "/etc/passwd",
        "fixtures/cardwar.onnx",
        ".hidden.onnx",
        "cardwar",
        "cardwar.onnx.txt",
        "policy.rs",
        "a b.onnx",
    ] {
        assert!(
            matches!(
                shelf.load(bad, cardwar.as_ref()),
                Err(PolicyError::BadName(_))
            ),
            "{bad:?}"
        );
    }
    assert_eq!(
        shelf.load("absent.onnx", cardwar.as_ref()).unwrap_err(),
        PolicyError::Unknown("absent.onnx".into())
    );
    assert!(matches!(
        shelf.load("kuhn_poker.onnx", cardwar.as_ref()),
        Err(PolicyError::WrongGame { .. })
    ));
    assert!(PolicyShelf::new(fixture("cardwar.onnx")).is_err());
}

#[test]
fn a_policy_shelf_catalogue_reads_each_file_once_until_it_changes() {
    let dir = std::env::temp_dir().join(format!("game-policy-catalogue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(fixture("cardwar.onnx"), dir.join("cardwar.onnx")).unwrap();
    std::fs::write(dir.join("broken.onnx"), b"not a model").unwrap();
    std::fs::write(dir.join("notes.txt"), b"not offered").unwrap();
    let shelf = PolicyShelf::new(dir.clone()).unwrap();
    let mut reads = Vec::new();
    let listed = shelf.catalogue(|name, _| reads.push(name.to_owned()));
    assert_eq!(reads, ["broken.onnx", "cardwar.onnx"]);
    assert_eq!(listed.len(), 2);
    assert!(matches!(listed[0].1, Err(PolicyError::Corrupt(_))));
    let trained = listed[1].1.as_ref().unwrap();
    assert_eq!(trained.game, "cardwar");
    assert!(trained.check(game("cardwar").as_ref()).is_ok());
    assert!(matches!(
        trained.check(game("cardwar(variant=hand_24)").as_ref()),
        Err(PolicyError::WrongRules { .. })
    ));
    // Read again only once changed; a file gone leaves the catalogue.
    let again = shelf.catalogue(|name, _| panic!("{name} read twice"));
    assert_eq!(again, listed);
    std::fs::copy(fixture("kuhn_poker.onnx"), dir.join("broken.onnx")).unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(dir.join("broken.onnx"))
        .unwrap()
        .set_modified(later)
        .unwrap();
    std::fs::remove_file(dir.join("cardwar.onnx")).unwrap();
    let mut reads = Vec::new();
    let listed = shelf.catalogue(|name, _| reads.push(name.to_owned()));
    assert_eq!(reads, ["broken.onnx"]);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].1.as_ref().unwrap().game, "kuhn-poker");
    std::fs::remove_dir_all(&dir).unwrap();
}
