//! Stratego's glossary ([`Wire::glossary`](game_traits::Wire::glossary)):
//! every piece of a rule set by its kind code, with its name, the short
//! sign a board draws it by and what it does under the rules in play. The
//! names and signs are the rule set's ([`Variant::name`],
//! [`Variant::symbol`]); the notes are read from the rules themselves
//! (the combat table, the long mover, whether it may strike after a long
//! move), so that a screen never keeps a table of pieces of its own.

use game_traits::Term;

use super::{kind_code, piece_name};
use crate::kind::Kind;
use crate::rules::Rules;
use crate::variant::Fight;

/// Every kind of `rules`' army, strongest first, then mine and flag.
pub(super) fn glossary(rules: &Rules) -> Vec<Term> {
    let variant = rules.variant;
    variant
        .kinds()
        .map(|kind| {
            let term = Term::new(kind_code(kind), piece_name(variant, kind), "piece")
                .symbol(variant.symbol(kind).trim());
            match note(rules, kind) {
                Some(note) => term.note(note),
                None => term,
            }
        })
        .collect()
}

/// What `kind` does beyond its rank under `rules`, if anything.
fn note(rules: &Rules, kind: Kind) -> Option<String> {
    let variant = rules.variant;
    let name = |k| piece_name(variant, k);
    let spy = variant.spy();
    // Czech: the spy wins whoever attacks; elsewhere only when it strikes.
    let spy_defends = variant.fight(Kind::R0, spy) == Fight::DefenderWins;
    let mut parts = Vec::new();
    if kind == Kind::FLAG {
        parts.push("never moves; capture it to win".to_owned());
    }
    if kind == Kind::MINE {
        parts.push(format!(
            "never moves; defeats every attacker but the {}",
            name(Kind::MINER)
        ));
    }
    if kind == Kind::R0 {
        parts.push(if spy_defends {
            format!("the strongest; falls to the {}, whoever attacks", name(spy))
        } else {
            format!(
                "the strongest; falls to the {0} if the {0} strikes first",
                name(spy)
            )
        });
    }
    if kind == spy {
        parts.push(if spy_defends {
            format!(
                "the weakest, but defeats the {}, whoever attacks",
                name(Kind::R0)
            )
        } else {
            format!(
                "the weakest, but defeats the {} when it attacks",
                name(Kind::R0)
            )
        });
    }
    if kind == Kind::MINER {
        parts.push(format!("the only piece that clears a {}", name(Kind::MINE)));
    }
    if rules.long_mover() == Some(kind) {
        parts.push(if rules.long_move_attack {
            "moves any distance in a straight line".to_owned()
        } else {
            "moves any distance in a straight line, but may not strike at the end of a long move"
                .to_owned()
        });
    }
    (!parts.is_empty()).then(|| parts.join("; ") + ".")
}
