//! Kuhn poker's actions read back from text: `FromStr` round-trips
//! `Display` for every action, in any case, with a typed error otherwise.

use game_traits::kuhn::{KuhnAction, KuhnParseError, KuhnRules};
use game_traits::RuleSet;

#[test]
fn every_kuhn_action_round_trips_its_display() {
    let rules = KuhnRules::default();
    for id in 0..rules.action_space() {
        let a = rules.action_from_id(id).unwrap();
        assert_eq!(a.to_string().parse::<KuhnAction>(), Ok(a));
        assert_eq!(a.to_string().to_uppercase().parse::<KuhnAction>(), Ok(a));
    }
    assert_eq!("check".parse(), Ok(KuhnAction::Pass));
    assert_eq!("Call".parse(), Ok(KuhnAction::Bet));
    assert_eq!(
        "raise".parse::<KuhnAction>(),
        Err(KuhnParseError("raise".into()))
    );
    assert!("deal A".parse::<KuhnAction>().is_err());
}
